import { describe, expect, it } from "vitest";
import {
  argumentsObject,
  asStopList,
  camelKeys,
  FieldReader,
  mergeExtras,
  parseDataUrl,
  toDataUrl,
} from "./request-fields.ts";

describe("FieldReader", () => {
  it("keeps unparsed values and untaken keys in rest()", () => {
    const f = new FieldReader({ a: 1, b: "x", c: true });
    expect(f.take("a", (v) => (typeof v === "number" ? v : undefined))).toBe(1);
    expect(f.take("b", (v) => (typeof v === "number" ? v : undefined))).toBeUndefined();
    expect(f.take("missing", () => 1)).toBeUndefined();
    expect(f.rest()).toEqual({ b: "x", c: true });
  });

  it("nested keeps a partial object, or the whole value when nothing was read", () => {
    const f = new FieldReader({ opt: { known: 1, other: 2 }, empty: {}, odd: 3 });
    expect(f.nested("opt", (g) => g.take("known", (v) => v))).toBe(1);
    expect(f.nested("empty", (g) => g.take("known", (v) => v))).toBeUndefined();
    expect(f.nested("odd", (g) => g.take("known", (v) => v))).toBeUndefined();
    expect(f.rest()).toEqual({ opt: { other: 2 }, empty: {}, odd: 3 });
  });
});

describe("FieldReader's shortcut (the count of keys left)", () => {
  const number = (v: unknown) => (typeof v === "number" ? v : undefined);

  it("answers has() for a taken key after every key is taken", () => {
    const f = new FieldReader({ type: "x", name: "n" });
    expect(f.take("type", () => undefined)).toBeUndefined();
    expect(f.take("name", (v) => v)).toBe("n");
    expect(f.has("type")).toBe(true);
    expect(f.has("other")).toBe(false);
    expect(f.rest()).toEqual({ type: "x" });
  });

  it("counts a key kept after it was taken once, so later keys are still read", () => {
    const f = new FieldReader({ content: 1, role: 2, extra: 3 });
    expect(f.take("content", number)).toBe(1);
    f.keep("content", "raw");
    expect(f.take("role", number)).toBe(2);
    expect(f.rest()).toEqual({ content: "raw", extra: 3 });
  });

  it("tells keys of the same length and last letter apart", () => {
    const f = new FieldReader({ ab: 1, ba: 2 });
    expect(f.take("xb", number)).toBeUndefined();
    expect(f.take("ab", number)).toBe(1);
    expect(f.take("ba", number)).toBe(2);
    expect(f.leftover()).toBeUndefined();
  });

  it("reads every key of a wide record, whatever order they are taken in", () => {
    const record: Record<string, number> = {};
    for (let i = 0; i < 200; i++) record[`key_${i}`] = i;
    const f = new FieldReader(record);
    for (let i = 199; i >= 100; i--) expect(f.take(`key_${i}`, number)).toBe(i);
    expect(f.take("absent", number)).toBeUndefined();
    expect(Object.keys(f.rest())).toHaveLength(100);
  });

  it("keeps a hand-built undefined value as an untaken key", () => {
    const f = new FieldReader({ a: undefined, b: 1 });
    expect(f.take("a", number)).toBeUndefined();
    expect(f.take("b", number)).toBe(1);
    expect(Object.hasOwn(f.rest(), "a")).toBe(true);
  });
});

describe("mergeExtras", () => {
  it("merges nested objects and lets extras win elsewhere", () => {
    expect(
      mergeExtras({ a: { x: 1 }, role: "user", n: 1 }, { a: { y: 2 }, role: "function" }),
    ).toEqual({
      a: { x: 1, y: 2 },
      role: "function",
      n: 1,
    });
    expect(mergeExtras({ a: 1 }, undefined)).toEqual({ a: 1 });
  });
});

describe("camelKeys", () => {
  it("renames one level of snake_case keys and never overwrites a camel key", () => {
    expect(camelKeys({ inline_data: { mime_type: "x" }, text: "t" })).toEqual({
      inlineData: { mime_type: "x" },
      text: "t",
    });
    expect(camelKeys({ max_output_tokens: 1, maxOutputTokens: 2 })).toEqual({
      max_output_tokens: 1,
      maxOutputTokens: 2,
    });
  });
});

describe("data URLs and arguments", () => {
  it("splits and rebuilds base64 data URLs only", () => {
    expect(parseDataUrl("data:image/png;base64,AAA=")).toEqual({
      mediaType: "image/png",
      data: "AAA=",
    });
    expect(parseDataUrl("data:text/plain,hello")).toBeUndefined();
    expect(parseDataUrl("https://x/y.png")).toBeUndefined();
    expect(toDataUrl("image/png", "AAA=")).toBe("data:image/png;base64,AAA=");
  });

  it("parses argument strings to objects; empty is {}; anything else undefined", () => {
    expect(argumentsObject('{"a":1}')).toEqual({ a: 1 });
    expect(argumentsObject("  ")).toEqual({});
    expect(argumentsObject("[1]")).toBeUndefined();
    expect(argumentsObject("{bad")).toBeUndefined();
  });

  it("a stop string is a one-element list; non-string lists are refused", () => {
    expect(asStopList("x")).toEqual(["x"]);
    expect(asStopList(["a", "b"])).toEqual(["a", "b"]);
    expect(asStopList(["a", 1])).toBeUndefined();
  });
});
