import { describe, expect, it } from "vitest";
import { readAnthropicUsage, writeAnthropicUsage } from "./usage.ts";

describe("anthropic usage", () => {
  it("adds cache reads and writes into input tokens, and the writer takes them out again", () => {
    const wire = {
      input_tokens: 50,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 200,
      output_tokens: 7,
    };
    const canonical = readAnthropicUsage(wire);
    expect(canonical).toEqual({
      inputTokens: 1250,
      outputTokens: 7,
      cacheReadTokens: 1000,
      cacheWriteTokens: 200,
    });
    expect(writeAnthropicUsage(canonical ?? {})).toEqual(wire);
  });

  it("leaves absent counts absent", () => {
    expect(readAnthropicUsage({ output_tokens: 3 })).toEqual({ outputTokens: 3 });
    expect(readAnthropicUsage(undefined)).toBeUndefined();
  });
});
