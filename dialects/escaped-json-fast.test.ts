import { describe, expect, it } from "vitest";
import { redactParsedBody } from "./body-redaction.ts";
import { foundBehindEscapes, redactionTag } from "./credentials.ts";
import { foundInEscapedJson, jsonStrings, stringTokens } from "./escaped-json-fast.ts";

/** Every character as Python's `json.dumps` writes it when it is not ASCII: `\uXXXX`. */
const python = (value: unknown) =>
  JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
/** Every character of `text` as `\uXXXX`. */
const spelled = (text: string) =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

const KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
const SECRET = "canary-value-123";

/** Pieces of string content: plain, escaped, quotes, backslashes, non-ASCII, keys, secrets. */
const PIECES = [
  "a",
  "Grüße",
  "naïve café",
  "こんにちは",
  "😀",
  '"',
  "\\",
  "\n",
  "\ud800",
  " sk",
  "-",
  "proj",
  KEY,
  SECRET,
  "canary",
  "-value-123",
  "AKIA",
  "ecret_access_key",
];

function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) >>> 0;
    return x;
  };
}

/** A random JSON value of strings, arrays and objects (keys drawn from the same pieces). */
function randomValue(next: () => number, depth: number): unknown {
  const text = () =>
    Array.from({ length: next() % 5 }, () => PIECES[next() % PIECES.length]).join("");
  const kind = depth > 2 ? 0 : next() % 4;
  if (kind === 0) return text();
  if (kind === 1) return Array.from({ length: next() % 4 }, () => randomValue(next, depth + 1));
  if (kind === 2) return next() % 100;
  return Object.fromEntries(
    Array.from({ length: next() % 4 }, () => [text(), randomValue(next, depth + 1)]),
  );
}

describe("foundInEscapedJson", () => {
  it("answers as decoding the text does, for random JSON written with escapes", () => {
    let answered = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const next = random(seed);
      const raw = python({ content: randomValue(next, 0) });
      const parsed = JSON.parse(raw);
      for (const searched of [[], [SECRET], ["-value-1"]]) {
        const fast = foundInEscapedJson(raw, parsed, searched);
        // Only a duplicate key (none here that the parse keeps apart) leaves it unable to tell.
        if (fast === undefined) continue;
        answered += 1;
        expect(fast, raw).toBe(foundBehindEscapes(raw, searched));
      }
    }
    expect(answered).toBeGreaterThan(8000);
  });

  it("sees a key spelled with escapes, inside a key as inside a value", () => {
    const inValue = `{"content":"see ${spelled(KEY)} here, caf\\u00e9"}`;
    const inKey = `{"${spelled(KEY)}":"caf\\u00e9"}`;
    for (const raw of [inValue, inKey]) {
      expect(foundInEscapedJson(raw, JSON.parse(raw), [])).toBe(true);
      expect(foundBehindEscapes(raw, [])).toBe(true);
    }
    const clean = '{"content":"caf\\u00e9 and a list"}';
    expect(foundInEscapedJson(clean, JSON.parse(clean), [])).toBe(false);
  });

  it("sees a secret that stands outside every string, in a number", () => {
    const raw = '{"text":"caf\\u00e9","n":12345678}';
    expect(foundInEscapedJson(raw, JSON.parse(raw), ["12345678"])).toBe(true);
    expect(foundBehindEscapes(raw, ["12345678"])).toBe(true);
  });

  it("cannot tell for a duplicate key, whose dropped value the parse no longer holds", () => {
    const raw = `{"content":"${spelled(KEY)}","content":"caf\\u00e9"}`;
    const parsed = JSON.parse(raw);
    expect(jsonStrings(raw, parsed)).toBeUndefined();
    expect(foundInEscapedJson(raw, parsed, [])).toBeUndefined();
    // And the body is still redacted, through the decoded text.
    expect(redactParsedBody(raw, parsed)).not.toContain(spelled(KEY));
    expect(redactParsedBody(raw, parsed)).toContain(redactionTag(KEY));
  });

  it("cannot tell for a secret holding a quote, which could run over a string's end", () => {
    const secret = 'ab","cd';
    const raw = '{"x":"ab","cd":"\\u00e9"}';
    expect(foundInEscapedJson(raw, JSON.parse(raw), [secret])).toBeUndefined();
    expect(foundBehindEscapes(raw, [secret])).toBe(true);
  });

  it("counts the string tokens a JSON text spells, escaped quotes and backslashes apart", () => {
    expect(stringTokens('{"a":"b"}')).toBe(2);
    expect(stringTokens('{"a":"say \\"hi\\""}')).toBe(2);
    expect(stringTokens('{"a":"ends in a backslash \\\\","b":["c"]}')).toBe(4);
    expect(stringTokens("[1,2,true,null]")).toBe(0);
  });
});

describe("redactParsedBody with escaped bodies", () => {
  it("keeps a Python client's escaped body byte for byte", () => {
    const raw = python({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Grüße aus München, naïve café. こんにちは" }],
    });
    expect(redactParsedBody(raw, JSON.parse(raw))).toBe(raw);
  });

  it("redacts a key or an extra secret that escapes spell", () => {
    const raw = python({ messages: [{ content: `Grüße ${KEY} and ${SECRET}` }] }).replace(
      "sk-",
      "s\\u006b-",
    );
    const out = redactParsedBody(raw, JSON.parse(raw), [SECRET]);
    expect(out).toContain(redactionTag(KEY));
    expect(out).toContain(redactionTag(SECRET));
    expect(out).toContain("Gr\\u00fc\\u00dfe");
  });
});
