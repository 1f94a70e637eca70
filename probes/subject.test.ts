import { describe, expect, it } from "vitest";
import { subjectOf } from "./subject.ts";

describe("subjectOf", () => {
  it("names one attribute the same whatever the client dialect spells it", () => {
    expect(subjectOf("openai-chat", "tools[].function.strict")).toBe("tools.strict");
    expect(subjectOf("openai-responses", "tools[].strict")).toBe("tools.strict");
    expect(subjectOf("anthropic-messages", "tools[].strict")).toBe("tools.strict");
    expect(subjectOf("anthropic-messages", "stop_sequences")).toBe("sampling.stop");
    expect(subjectOf("openai-chat", "stop")).toBe("sampling.stop");
  });

  it("takes an alias as its attribute's spelling", () => {
    expect(subjectOf("openai-chat", "max_completion_tokens")).toBe("sampling.max-tokens");
    expect(subjectOf("openai-chat", "messages[role=developer]")).toBe("system");
  });

  it("keeps reply features, headers, credentials, failure fields and the path as named", () => {
    for (const field of [
      "finish_reason",
      "tool_calls[].id",
      "headers.anthropic-beta",
      "credentials.header.x-api-key",
      "failure.status",
      "path",
    ]) {
      expect(subjectOf("openai-chat", field)).toBe(field);
    }
  });

  it("names a key no reader maps by the client's own spelling", () => {
    expect(subjectOf("openai-chat", "logit_bias_x")).toBe("extras.logit_bias_x");
    // Chat has no spelling of a cache marker: `cache_control` there is an unmapped key.
    expect(subjectOf("openai-chat", "cache_control")).toBe("extras.cache_control");
  });
});
