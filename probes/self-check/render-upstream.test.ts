import { describe, expect, it } from "vitest";
import { DEFAULT_STEP, renderStep, stepsOf } from "./render-upstream.ts";

describe("renderStep", () => {
  it("renders a staged reply as the backend's JSON, or as its stream with the plan applied", () => {
    const step = {
      reply: {
        parts: [{ type: "text" as const, text: "hi" }],
        stopReason: "length" as const,
        extras: {},
      },
      plan: { omitTerminal: true },
    };
    const json = renderStep(step, "anthropic-messages", "non-stream");
    expect(JSON.parse(json?.body ?? "{}").stop_reason).toBe("max_tokens");
    const stream = renderStep(step, "openai-chat", "stream");
    // The content type OpenAI streams with, as the mock sends it.
    expect(stream?.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(stream?.body).toContain('"finish_reason":"length"');
    expect(stream?.body).not.toContain("[DONE]");
  });

  it("renders errors in their shape with the probe's headers, and raw bytes per backend", () => {
    const error = renderStep(
      { error: { status: 429, message: "slow", headers: { "retry-after": "3" } } },
      "openai-chat",
      "non-stream",
    );
    expect(error?.status).toBe(429);
    expect(error?.headers["retry-after"]).toBe("3");
    expect(JSON.parse(error?.body ?? "{}").error.message).toBe("slow");
    const html = renderStep(
      { error: { status: 502, message: "", shape: "html" } },
      "gemini",
      "stream",
    );
    expect(html?.body).toContain("<title>502 Bad Gateway</title>");
    const raw = { raw: { ollama: { status: 200, body: '{"done":true}' } } };
    expect(renderStep(raw, "ollama", "non-stream")?.body).toBe('{"done":true}');
    expect(renderStep(raw, "gemini", "non-stream")).toBeUndefined();
  });

  it("serves the default text reply when nothing is staged, and a sequence in order", () => {
    expect(stepsOf(undefined)).toEqual([DEFAULT_STEP]);
    const first = { error: { status: 503, message: "x" } };
    expect(stepsOf({ sequence: [first, DEFAULT_STEP] })).toEqual([first, DEFAULT_STEP]);
  });
});
