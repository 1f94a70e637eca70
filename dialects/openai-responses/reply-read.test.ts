import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readReply } from "../reply.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("openai-responses reply reader", () => {
  it("reads the documented text reply", () => {
    const got = readReply(
      "openai-responses",
      { status: 200, body: fixture("reply-text.json") },
      "non-stream",
    );
    expect(got.id).toBe("resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b");
    expect(got.parts).toEqual([
      {
        type: "text",
        text: "In a peaceful grove beneath a silver moon, a unicorn named Lumina discovered a hidden pool that reflected the stars.",
      },
    ]);
    expect(got.stopReason).toBe("stop");
    expect(got.rawStopReason).toBe("completed");
    expect(got.usage).toEqual({
      inputTokens: 36,
      outputTokens: 87,
      totalTokens: 123,
      cacheReadTokens: 0,
      reasoningTokens: 0,
    });
    expect(got.extras).toMatchObject({ created_at: 1741476542, tool_choice: "auto" });
  });

  it("reads an incomplete reply as a truncation, reasoning summary as thinking", () => {
    const got = readReply(
      "openai-responses",
      { status: 200, body: fixture("reply-incomplete.json") },
      "non-stream",
    );
    expect(got.stopReason).toBe("length");
    expect(got.rawStopReason).toBe("incomplete/max_output_tokens");
    expect(got.parts).toEqual([
      {
        type: "thinking",
        text: "**Planning the answer**\n\nI start with the definition.\n\n**Checking units**",
        signature: "gAAAAABoISQ24OyVRYbkYfukIIPOVmPWGdYAPZY",
      },
    ]);
    expect(got.usage?.reasoningTokens).toBe(300);
  });

  it("reads a failed response's error", () => {
    const body = JSON.stringify({
      id: "resp_1",
      object: "response",
      status: "failed",
      error: { code: "server_error", message: "The model failed." },
      output: [],
    });
    const got = readReply("openai-responses", { status: 200, body }, "non-stream");
    expect(got.stopReason).toBe("error");
    expect(got.error).toMatchObject({
      status: 200,
      type: "server_error",
      message: "The model failed.",
    });
  });
});
