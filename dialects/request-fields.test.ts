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
