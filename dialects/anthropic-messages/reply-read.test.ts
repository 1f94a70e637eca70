import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readReply, writeError } from "../reply.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("anthropic-messages reply reader", () => {
  it("reads the documented text reply", () => {
    const got = readReply(
      "anthropic-messages",
      { status: 200, body: fixture("reply-text.json") },
      "non-stream",
    );
    expect(got.id).toBe("msg_013Zva2CMHLNnXjNJJKqJ2EF");
    expect(got.parts).toEqual([{ type: "text", text: "Hi! My name is Claude." }]);
    expect(got.stopReason).toBe("stop");
    expect(got.rawStopReason).toBe("end_turn");
    expect(got.usage).toEqual({ inputTokens: 2095, outputTokens: 503 });
  });

  it("adds cache reads and writes to input tokens (OpenAI's meaning)", () => {
    const got = readReply(
      "anthropic-messages",
      { status: 200, body: fixture("reply-thinking-tool.json") },
      "non-stream",
    );
    expect(got.usage).toEqual({
      inputTokens: 472 + 100 + 2000,
      outputTokens: 91,
      cacheReadTokens: 2000,
      cacheWriteTokens: 100,
    });
    expect(got.parts.map((p) => p.type)).toEqual(["thinking", "text", "tool-call"]);
    expect(got.parts[0]).toMatchObject({ signature: expect.stringMatching(/^WaUjzkyp/) });
    expect(got.parts[2]).toEqual({
      type: "tool-call",
      id: "toolu_01A09q90qw90lq917835lq9",
      name: "get_weather",
      arguments: '{"location":"Paris, France","unit":"celsius"}',
    });
    expect(got.stopReason).toBe("tool_calls");
  });

  it("reads the stop sequence that matched", () => {
    const body = JSON.stringify({
      type: "message",
      content: [{ type: "text", text: "1, 2, 3" }],
      stop_reason: "stop_sequence",
      stop_sequence: "STOPPROBE",
    });
    const got = readReply("anthropic-messages", { status: 200, body }, "non-stream");
    expect(got.stopReason).toBe("stop_sequence");
    expect(got.stopSequence).toBe("STOPPROBE");
  });

  it("reads redacted thinking as a redacted thinking part", () => {
    const body = JSON.stringify({
      type: "message",
      content: [{ type: "redacted_thinking", data: "EmwKAhgB" }],
    });
    const got = readReply("anthropic-messages", { status: 200, body }, "non-stream");
    expect(got.parts).toEqual([
      { type: "thinking", text: "", signature: "EmwKAhgB", redacted: true },
    ]);
  });

  it("reads the documented overloaded error", () => {
    const got = readReply(
      "anthropic-messages",
      { status: 529, body: fixture("error-overloaded.json") },
      "non-stream",
    );
    expect(got.error).toMatchObject({
      status: 529,
      type: "overloaded_error",
      message: "Overloaded",
    });
  });

  it("reads every adapter-breaking error shape it writes", () => {
    for (const shape of ["object", "string", "html", "empty"] as const) {
      const wire = writeError("anthropic-messages", {
        status: 502,
        message: "bad upstream",
        shape,
      });
      const got = readReply("anthropic-messages", wire, "non-stream");
      expect(got.error?.status, shape).toBe(502);
      const expected = {
        object: "bad upstream",
        string: "bad upstream",
        html: "502 Bad Gateway",
        empty: undefined,
      };
      expect(got.error?.message, shape).toBe(expected[shape]);
    }
  });
});
