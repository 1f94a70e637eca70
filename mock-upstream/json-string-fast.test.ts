import { describe, expect, it } from "vitest";
import { jsonStringFast } from "./json-string-fast.ts";

/** Characters that take each of the serializer's ways: plain, quote, escapes, non-ASCII. */
const POOL = [
  "a",
  "Z",
  " ",
  '"',
  "\\",
  "/",
  "\n",
  "\r",
  "\t",
  "\b",
  "\f",
  "\u0000",
  "\u001f",
  "\u007f",
  "é",
  "ü",
  "\u2028",
  "\u2029",
  "€",
  "😀",
  "\ud800",
  "\udfff",
  "\ud83d",
  "\ude00",
];

function randomText(seed: number, length: number): string {
  let x = seed;
  let out = "";
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out += POOL[x % POOL.length];
  }
  return out;
}

describe("jsonStringFast", () => {
  it("is JSON.stringify for each kind of character alone and in a sentence", () => {
    for (const c of POOL) {
      expect(jsonStringFast(c), JSON.stringify(c)).toBe(JSON.stringify(c));
      const text = `say ${c}"quoted"${c} end`;
      expect(jsonStringFast(text)).toBe(JSON.stringify(text));
    }
    expect(jsonStringFast("")).toBe('""');
  });

  it("is JSON.stringify for request bodies and random text", () => {
    const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: 'a "b" c' }] });
    expect(jsonStringFast(body)).toBe(JSON.stringify(body));
    for (let seed = 1; seed <= 2000; seed++) {
      const text = randomText(seed, seed % 97);
      expect(jsonStringFast(text)).toBe(JSON.stringify(text));
    }
  });

  it("is JSON.stringify for JSON texts, compact, indented and with escapes", () => {
    for (let seed = 1; seed <= 1000; seed++) {
      const value = { model: "m", n: seed, text: randomText(seed, seed % 41), list: [1, "a"] };
      for (const text of [
        JSON.stringify(value),
        JSON.stringify(value, null, seed % 2 ? 2 : "\t"),
        JSON.stringify(value).replaceAll(",", ",\r\n"),
      ]) {
        expect(JSON.parse(text)).toEqual(value);
        expect(jsonStringFast(text, true)).toBe(JSON.stringify(text));
      }
    }
    // JSON.parse takes a lone surrogate written raw inside a string; the serializer escapes it.
    for (const lone of ["\ud800", "\udfff", "a\ud83d"]) {
      const text = `{"s":"${lone}"}`;
      expect(JSON.parse(text)).toEqual({ s: lone });
      expect(jsonStringFast(text, true)).toBe(JSON.stringify(text));
    }
  });
});
