import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readReply } from "../reply.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const read = (name: string, status = 200) =>
  readReply("gemini", { status, body: fixture(name) }, "non-stream");

describe("gemini reply reader", () => {
  it("adds thinking tokens to output tokens (candidatesTokenCount excludes them)", () => {
    const got = read("reply-text.json");
    expect(got.parts).toEqual([{ type: "text", text: "AI works by learning patterns from data." }]);
    expect(got.usage).toEqual({
      inputTokens: 8,
      outputTokens: 9 + 1128,
      totalTokens: 1145,
      cacheReadTokens: 4,
      reasoningTokens: 1128,
    });
    expect(got.id).toBe("j8B4aJ3qLqW0nvgP0rrBmA0");
    expect(got.model).toBe("gemini-2.5-flash");
  });

  it("infers a tool turn from a functionCall part although Gemini says STOP", () => {
    const got = read("reply-function-call.json");
    expect(got.rawStopReason).toBe("STOP");
    expect(got.stopReason).toBe("tool_calls");
    expect(got.parts).toEqual([
      {
        type: "tool-call",
        id: "",
        name: "schedule_meeting",
        arguments:
          '{"attendees":["Bob","Alice"],"date":"2025-03-27","time":"10:00","topic":"Q3 planning"}',
      },
    ]);
  });

  it("reads a prompt blocked before generation as content_filter", () => {
    const got = read("reply-prompt-blocked.json");
    expect(got.stopReason).toBe("content_filter");
    expect(got.rawStopReason).toBe("PROHIBITED_CONTENT");
    expect(got.parts).toEqual([]);
  });

  it("reads the documented invalid-key error", () => {
    const got = read("error-invalid-key.json", 400);
    expect(got.error).toMatchObject({
      status: 400,
      type: "INVALID_ARGUMENT",
      message: "API key not valid. Please pass a valid API key.",
    });
  });
});
