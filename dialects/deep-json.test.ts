import { describe, expect, it } from "vitest";
import { stringifyDeep, stringifyIterative, walkJson } from "./deep-json.ts";

/** A small seeded generator: the same values every run. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

const LEAVES: unknown[] = [
  0,
  -0,
  1.5,
  1e21,
  -3e-7,
  "",
  'é\u2028"\\\n',
  "\ud83d\ude00",
  true,
  false,
  null,
];
const KEYS = ["a", "", "__proto__", "key with space", "é", "1", "0"];

function value(next: () => number, depth: number): unknown {
  const r = next();
  if (depth > 5 || r < 0.4) return LEAVES[Math.floor(next() * LEAVES.length)];
  if (r < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 4); i > 0; i--) {
    const key = KEYS[Math.floor(next() * KEYS.length)] ?? "k";
    Object.defineProperty(out, key, {
      value: value(next, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

describe("stringifyIterative", () => {
  it("writes exactly what JSON.stringify writes, on 2,000 generated values", () => {
    const next = random(24);
    for (let i = 0; i < 2000; i++) {
      const v = value(next, 0);
      expect(stringifyIterative(v)).toBe(JSON.stringify(v));
    }
  });

  it("writes what JSON.parse read back, where JSON.stringify overflows", () => {
    const text = `${"[".repeat(20_000)}{"a":1}${"]".repeat(20_000)}`;
    const parsed = JSON.parse(text);
    expect(() => JSON.stringify(parsed)).toThrow(RangeError);
    expect(stringifyDeep(parsed)).toBe(text);
  });
});

describe("walkJson", () => {
  it("copies a value with the same key order, __proto__ as an own key", () => {
    const next = random(7);
    for (let i = 0; i < 500; i++) {
      const v = value(next, 0);
      const copy = walkJson(v, { leaf: (x) => x, member: () => undefined });
      expect(JSON.stringify(copy)).toBe(JSON.stringify(v));
    }
    const parsed = JSON.parse('{"__proto__":{"x":1},"b":2}');
    const copy = walkJson(parsed, { leaf: (x) => x, member: () => undefined });
    expect(Object.keys(copy as object)).toEqual(["__proto__", "b"]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });
});
