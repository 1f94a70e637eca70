import { describe, expect, it } from "vitest";
import { embeddedJson, opensLikeJson } from "./embedded-json.ts";

describe("embeddedJson", () => {
  it("reads an object or an array a string holds", () => {
    expect(embeddedJson('{"password":"hunter22"}')).toEqual({ password: "hunter22" });
    expect(embeddedJson('[{"api_key":"k"}]')).toEqual([{ api_key: "k" }]);
  });

  it("reads JSON that opens with whitespace", () => {
    expect(embeddedJson('\n  {"token": "t"}')).toEqual({ token: "t" });
  });

  it("leaves prose, scalars and broken JSON alone", () => {
    expect(embeddedJson("Paris is the capital")).toBeUndefined();
    expect(embeddedJson("42")).toBeUndefined();
    expect(embeddedJson('"quoted"')).toBeUndefined();
    expect(embeddedJson("null")).toBeUndefined();
    expect(embeddedJson('{"city": "Par')).toBeUndefined();
    expect(embeddedJson("   ")).toBeUndefined();
    expect(embeddedJson("")).toBeUndefined();
  });
});

describe("opensLikeJson", () => {
  it("looks at the first character, past whitespace", () => {
    expect(opensLikeJson("{")).toBe(true);
    expect(opensLikeJson(" \t[1]")).toBe(true);
    expect(opensLikeJson("x{")).toBe(false);
    expect(opensLikeJson("")).toBe(false);
  });
});
