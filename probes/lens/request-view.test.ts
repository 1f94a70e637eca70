import { describe, expect, it } from "vitest";
import { argumentsValue } from "./request-view.ts";

describe("argumentsValue", () => {
  it("parses JSON arguments, keeps other text raw, and answers the same for the same text", () => {
    expect(argumentsValue('{"city":"Paris"}')).toEqual({ city: "Paris" });
    expect(argumentsValue('{"city":"Paris"}')).toEqual({ city: "Paris" });
    expect(argumentsValue("null")).toBeNull();
    expect(argumentsValue("null")).toBeNull();
    expect(argumentsValue("{not json")).toBe("{not json");
    expect(argumentsValue("")).toBe("");
    const long = JSON.stringify({ text: "x".repeat(5000) });
    expect(argumentsValue(long)).toEqual({ text: "x".repeat(5000) });
  });

  it("stays bounded: past its limit the remembered texts are dropped, the answers unchanged", () => {
    for (let i = 0; i < 2100; i++) expect(argumentsValue(`{"n":${i}}`)).toEqual({ n: i });
    expect(argumentsValue('{"n":7}')).toEqual({ n: 7 });
  });
});
