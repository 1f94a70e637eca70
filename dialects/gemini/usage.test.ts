import { describe, expect, it } from "vitest";
import { readGeminiUsage, writeGeminiUsage } from "./usage.ts";

describe("gemini usage", () => {
  it("counts thoughts into output tokens, and the writer takes them out again", () => {
    const wire = {
      promptTokenCount: 100,
      candidatesTokenCount: 20,
      totalTokenCount: 150,
      cachedContentTokenCount: 60,
      thoughtsTokenCount: 30,
    };
    const canonical = readGeminiUsage(wire);
    expect(canonical).toEqual({
      inputTokens: 100,
      outputTokens: 50,
      totalTokens: 150,
      cacheReadTokens: 60,
      reasoningTokens: 30,
    });
    expect(writeGeminiUsage(canonical ?? {})).toEqual(wire);
  });

  it("leaves absent counts absent", () => {
    expect(readGeminiUsage({ promptTokenCount: 4 })).toEqual({ inputTokens: 4 });
  });
});
