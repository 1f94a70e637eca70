import { describe, expect, it } from "vitest";
import {
  credentialValuesInJson,
  isRedactionTag,
  KEY_SHAPES,
  redactBody,
  redactCredentialValue,
  redactHeaderPairs,
  redactionTag,
  redactJson,
  redactQuery,
  redactText,
} from "./credentials.ts";

const OPENAI = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx";
const ANTHROPIC = "sk-ant-api03-AbCdEfGhIjKlMnOp";
const GOOGLE = "AIzaSyA-1234567890abcdefghijk";

describe("redaction tags", () => {
  it("are the first 8 hex of sha256, the same for the same secret", () => {
    // sha256("abc") = ba7816bf...
    expect(redactionTag("abc")).toBe("[REDACTED:ba7816bf]");
    expect(redactionTag(OPENAI)).toBe(redactionTag(OPENAI));
    expect(redactionTag(OPENAI)).not.toBe(redactionTag(ANTHROPIC));
    expect(isRedactionTag(redactionTag("x"))).toBe(true);
    expect(isRedactionTag("[REDACTED:xyz]")).toBe(false);
  });
});

describe("redactText", () => {
  it("replaces every key shape, an Anthropic key as one tag", () => {
    const out = redactText(`a ${OPENAI} b ${ANTHROPIC} c ${GOOGLE} d gsk_${"a".repeat(24)}`);
    expect(out).toBe(
      `a ${redactionTag(OPENAI)} b ${redactionTag(ANTHROPIC)} c ${redactionTag(GOOGLE)} d ${redactionTag(`gsk_${"a".repeat(24)}`)}`,
    );
  });

  it("has a quick prefix for every key shape (a shape without one would never be redacted)", () => {
    for (const shape of KEY_SHAPES) {
      const sample = shape.source.match(/^[A-Za-z_-]+/)?.[0] ?? "";
      const secret = `${sample}${"A1b2C3d4E5f6G7h8J9k0L1m2"}`;
      expect(redactText(`x ${secret} y`), shape.source).toBe(`x ${redactionTag(secret)} y`);
    }
  });

  it("replaces extra secrets of 6+ characters and leaves short ones and plain text alone", () => {
    expect(redactText("token hunter2 and abc", ["hunter2", "abc"])).toBe(
      `token ${redactionTag("hunter2")} and abc`,
    );
    expect(redactText("sk-short")).toBe("sk-short");
  });
});

describe("headers", () => {
  it("keeps names, order and case; keeps the auth scheme", () => {
    const pairs = redactHeaderPairs([
      ["Host", "x"],
      ["Authorization", `Bearer ${OPENAI}`],
      ["x-api-key", ANTHROPIC],
      ["X-Trace", `see ${GOOGLE}`],
      ["Cookie", "session=1"],
    ]);
    expect(pairs).toEqual([
      ["Host", "x"],
      ["Authorization", `Bearer ${redactionTag(OPENAI)}`],
      ["x-api-key", redactionTag(ANTHROPIC)],
      ["X-Trace", `see ${redactionTag(GOOGLE)}`],
      ["Cookie", redactionTag("session=1")],
    ]);
    expect(redactCredentialValue("Basic dXNlcjpwYXNz")).toBe(
      `Basic ${redactionTag("dXNlcjpwYXNz")}`,
    );
  });
});

describe("query strings", () => {
  it("redacts credential parameters by name, keeps order and other values", () => {
    expect(redactQuery(`alt=sse&key=${GOOGLE}&API_KEY=abc&flag`)).toBe(
      `alt=sse&key=${redactionTag(GOOGLE)}&API_KEY=${redactionTag("abc")}&flag`,
    );
    expect(redactQuery("")).toBe("");
  });

  it("survives malformed percent-encoding (a gateway's bad URL must not crash the mock)", () => {
    expect(() => redactQuery("key=%zz&x=%E0%A4%A")).not.toThrow();
    expect(redactQuery("key=%zz&x=1")).toBe(`key=${redactionTag("%zz")}&x=1`);
    expect(redactQuery("%zz=1")).toBe("%zz=1");
  });
});

describe("bodies", () => {
  it("finds credential-named values at any depth", () => {
    const body = { a: { api_key: "k1", list: [{ authorization: "Bearer t2" }] }, apiKey: 3 };
    expect(credentialValuesInJson(body)).toEqual(["k1", "t2"]);
    expect(redactJson(body)).toEqual({
      a: { api_key: redactionTag("k1"), list: [{ authorization: `Bearer ${redactionTag("t2")}` }] },
      apiKey: 3,
    });
  });

  it("redacts in place, keeping every other byte (spacing, key order) exact", () => {
    const raw = `{ "model" : "m",\n  "api_key":"secret-value-1", "note":"${OPENAI}" }`;
    expect(redactBody(raw)).toBe(
      `{ "model" : "m",\n  "api_key":"${redactionTag("secret-value-1")}", "note":"${redactionTag(OPENAI)}" }`,
    );
    const clean = '{"b":1,  "a":[2]}';
    expect(redactBody(clean)).toBe(clean);
    expect(redactBody(`not json ${OPENAI}`)).toBe(`not json ${redactionTag(OPENAI)}`);
  });

  it("catches a secret that JSON escaping changed on the wire", () => {
    const raw = '{"api_key":"pa\\u0073sword-123"}';
    const out = redactBody(raw);
    expect(out).not.toContain("password-123");
    expect(JSON.parse(out).api_key).toBe(redactionTag("password-123"));
  });

  it("catches a key-shaped string spelled with escapes, and keeps escaped text without one", () => {
    const hidden = `s\\u006b${OPENAI.slice(2)}`; // "sk-..." with its k escaped
    const raw = `{"model":"m","content":"key ${hidden} here"}`;
    const out = redactBody(raw);
    expect(JSON.stringify(JSON.parse(out))).not.toContain(OPENAI);
    expect(JSON.parse(out).content).toBe(`key ${redactionTag(OPENAI)} here`);
    // Escapes alone change nothing: Python's json.dumps escapes every non-ASCII character.
    const python = '{"content":"caf\\u00e9 task-list pk-"}';
    expect(redactBody(python)).toBe(python);
  });

  it("catches an escaped key in a stream's events, keeping every other byte", () => {
    const hidden = `s\\u006b${OPENAI.slice(2)}`;
    const sse = `event: message\ndata: {"delta":{"text":"${hidden}"}}\n\ndata: [DONE]\n\n`;
    expect(redactText(sse)).toBe(sse.replace(hidden, redactionTag(OPENAI)));
    expect(redactBody(sse)).toBe(sse.replace(hidden, redactionTag(OPENAI)));
    // An NDJSON stream (Ollama) with a key escaped letter by letter.
    const spelled = [...OPENAI].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    const ndjson = `{"message":{"content":"${spelled.join("")}"}}\n{"done":true}\n`;
    expect(redactBody(ndjson)).toBe(
      `{"message":{"content":"${redactionTag(OPENAI)}"}}\n{"done":true}\n`,
    );
  });

  it("redacts credential-named keys inside a stream's events, escaped or not", () => {
    const sse =
      'data: {"error":{"api_key":"plain-secret-9"}}\n\ndata: {"x-api-\\u006bey":"other-secret-7"}\n\n';
    const out = redactBody(sse);
    expect(out).not.toContain("plain-secret-9");
    expect(out).not.toContain("other-secret-7");
    expect(out).toContain(redactionTag("plain-secret-9"));
    expect(out).toContain(redactionTag("other-secret-7"));
    const usage = 'data: {"usage":{"input_tokens":3}}\n\n';
    expect(redactBody(usage)).toBe(usage);
  });

  it("finds an extra secret that escapes spell, and leaves an escaped backslash's text alone", () => {
    const canary = "canary-value-123";
    const escaped = "data: can\\u0061ry-value-123\n";
    expect(redactText(escaped, [canary])).toBe(`data: ${redactionTag(canary)}\n`);
    // `\\u0073k-...` is a backslash, then the letters "u0073k-...": no key is spelled there.
    const literal = `{"text":"\\\\u0073k${OPENAI.slice(1)}"}`;
    expect(redactBody(literal)).toBe(literal);
  });

  it("never throws when a secret also occurs inside a number", () => {
    const raw = '{"api_key":"123456","n":1234567}';
    const out = redactBody(raw);
    expect(JSON.parse(out).api_key).toBe(redactionTag("123456"));
    expect(out).not.toMatch(/"123456"/);
  });
});
