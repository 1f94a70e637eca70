import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readReply } from "../reply.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("openai-chat reply reader", () => {
  it("reads a documented text reply, keeping unmapped keys raw", () => {
    const got = readReply(
      "openai-chat",
      { status: 200, body: fixture("reply-text.json") },
      "non-stream",
    );
    expect(got.id).toBe("chatcmpl-D8Z5f52zQqikDBEKQMQoYcWMcWPeU");
    expect(got.model).toBe("gpt-4.1-nano-2025-04-14");
    expect(got.parts).toHaveLength(1);
    expect(got.parts[0]).toMatchObject({ type: "text" });
    expect(got.stopReason).toBe("stop");
    expect(got.rawStopReason).toBe("stop");
    expect(got.usage).toEqual({
      inputTokens: 16,
      outputTokens: 363,
      totalTokens: 379,
      cacheReadTokens: 0,
      reasoningTokens: 0,
    });
    expect(got.extras).toMatchObject({ created: 1770933883, system_fingerprint: "fp_de604bd877" });
    expect(got.error).toBeUndefined();
  });

  it("keeps tool-call arguments as the raw string, newlines and all", () => {
    const got = readReply(
      "openai-chat",
      { status: 200, body: fixture("reply-tool-calls.json") },
      "non-stream",
    );
    expect(got.parts).toEqual([
      {
        type: "tool-call",
        id: "call_abc123",
        name: "get_current_weather",
        arguments: '{\n"location": "Boston, MA"\n}',
      },
    ]);
    expect(got.stopReason).toBe("tool_calls");
    expect(got.usage?.cacheReadTokens).toBe(64);
  });

  it("reads a documented 401 error body", () => {
    const got = readReply(
      "openai-chat",
      { status: 401, body: fixture("error-invalid-key.json") },
      "non-stream",
    );
    expect(got.error).toMatchObject({ status: 401, type: "invalid_request_error" });
    expect(got.error?.message).toMatch(/^Incorrect API key provided/);
    expect(got.parts).toEqual([]);
  });

  it("reads an error object inside a 2xx body as an error", () => {
    const body = JSON.stringify({ error: { message: "quota", type: "insufficient_quota" } });
    const got = readReply("openai-chat", { status: 200, body }, "non-stream");
    expect(got.error).toMatchObject({ status: 200, type: "insufficient_quota", message: "quota" });
  });

  it("reads reasoning_content (DeepSeek) and a refusal", () => {
    const body = JSON.stringify({
      id: "x",
      choices: [
        {
          message: { role: "assistant", content: null, reasoning_content: "hmm", refusal: "No." },
          finish_reason: "stop",
        },
      ],
    });
    const got = readReply("openai-chat", { status: 200, body }, "non-stream");
    expect(got.parts).toEqual([
      { type: "reasoning", text: "hmm" },
      { type: "refusal", text: "No." },
    ]);
  });

  it("reads a body that is not JSON as an error, without throwing", () => {
    const got = readReply("openai-chat", { status: 200, body: "OK" }, "non-stream");
    expect(got.error?.message).toBe("body is not JSON: OK");
  });
});
