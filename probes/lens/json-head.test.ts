import { describe, expect, it } from "vitest";
import { fixtureJsonFiles } from "./fixture-values.ts";
import { jsonHead, quote } from "./json-head.ts";

/** What jsonHead promises against JSON.stringify: the whole text, or an exact longer head. */
function expectHead(value: unknown, limit: number): void {
  const whole = JSON.stringify(value);
  const head = jsonHead(value, limit);
  if (head === undefined) return;
  if (whole === undefined || whole.length <= limit) {
    expect(head, String(whole)).toBe(whole);
    return;
  }
  expect(head.length, whole).toBeGreaterThan(limit);
  expect(head.slice(0, limit + 1), whole).toBe(whole.slice(0, limit + 1));
}

describe("quote", () => {
  it("writes a string as JSON.stringify does, escapes and surrogates included", () => {
    const pieces = [
      "a",
      "\n",
      '"',
      "\\",
      "é",
      "😀",
      "\u0001",
      "\ud800",
      "\udc00",
      "\u2028",
      "\u007f",
    ];
    for (const a of pieces) {
      for (const b of pieces) expect(quote(`x${a}${b}y`)).toBe(JSON.stringify(`x${a}${b}y`));
    }
    expect(quote("")).toBe('""');
  });
});

describe("jsonHead", () => {
  it("writes plain data whole when it fits and an exact head when it does not", () => {
    const pieces: unknown[] = ["a", 1.5, -0, 1e21, null, true, false, undefined, "é😀\n", [], {}];
    for (let n = 0; n < 30; n++) {
      const list: unknown[] = [];
      const record: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) {
        const piece = pieces[(i * 5 + n) % pieces.length];
        list.push(piece);
        record[i % 3 === 0 ? `${30 - i}` : `k${i}"`] = piece;
        record[`s${i}`] = Symbol("s");
      }
      for (const limit of [0, 1, 10, 59, 60, 61, 200]) {
        expectHead(list, limit);
        expectHead(record, limit);
        expectHead({ nested: [record, list] }, limit);
      }
    }
  });

  it("cuts a long string past the limit, a surrogate pair at the cut included", () => {
    for (let at = 50; at < 70; at++) {
      const text = `${"x".repeat(at)}😀${"\n".repeat(10)}`;
      for (const limit of [58, 59, 60, 61]) {
        expectHead(text, limit);
        expectHead([text], limit);
        expectHead({ [text]: 1 }, limit);
      }
    }
  });

  it("leaves to JSON.stringify what is not plain JSON data", () => {
    expect(jsonHead(new Date(0), 60)).toBeUndefined();
    expect(jsonHead({ at: new Map() }, 60)).toBeUndefined();
    expect(jsonHead([{ toJSON: () => 1 }], 60)).toBeUndefined();
    expect(jsonHead(10n, 60)).toBeUndefined();
    expect(jsonHead(undefined, 60)).toBeUndefined();
    expect(jsonHead(() => 1, 60)).toBeUndefined();
    expect(jsonHead({ toJSON: 1 }, 60)).toBe('{"toJSON":1}');
    expect(jsonHead(Object.create(null), 60)).toBe("{}");
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(jsonHead(deep, 1000)).toBeUndefined();
  });

  it("writes every value inside the lens's fixtures as JSON.stringify does", () => {
    let values = 0;
    const visit = (value: unknown): void => {
      if (typeof value === "object" && value !== null) {
        for (const limit of [60, 100_000]) expectHead(value, limit);
        values += 1;
        for (const inner of Object.values(value)) visit(inner);
      } else if (typeof value === "string") expectHead(value, 60);
    };
    for (const file of fixtureJsonFiles()) visit(file);
    expect(values).toBeGreaterThan(1000);
  });
});
