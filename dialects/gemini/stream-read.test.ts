import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readReply, readReplyChunks } from "../reply.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("gemini stream reader", () => {
  it("reads a captured CRLF-framed function-call stream with its thought signature", () => {
    const body = fixture("stream-tool-call.sse");
    expect(body).toContain("\r\n\r\n");
    const got = readReply("gemini", { status: 200, body }, "stream");
    expect(got.parts).toHaveLength(1);
    expect(got.parts[0]).toMatchObject({
      type: "tool-call",
      id: "",
      name: "weather",
      arguments: '{"location":"San Francisco"}',
      signature: expect.stringMatching(/^EqUCCqICAb4/),
    });
    expect(got.stopReason).toBe("tool_calls");
    expect(got.usage).toMatchObject({ inputTokens: 29, outputTokens: 60, reasoningTokens: 45 });
    expect(got.stream).toMatchObject({ complete: true, terminalEvent: "finishReason", events: 2 });
  });

  it("joins text pieces and keeps a signature sent on an empty closing part", () => {
    const chunk = (parts: unknown[], finishReason?: string) =>
      `data: ${JSON.stringify({ candidates: [{ content: { parts, role: "model" }, finishReason, index: 0 }] })}\r\n\r\n`;
    const body =
      chunk([{ text: "There are **3** r's in" }]) +
      chunk([{ text: " strawberry." }]) +
      chunk([{ text: "", thoughtSignature: "Eo0HCooH" }], "STOP");
    const bytes = new TextEncoder().encode(body);
    const got = readReplyChunks("gemini", [bytes.slice(0, 50), bytes.slice(50)], 200, "stream");
    expect(got.parts).toEqual([
      { type: "text", text: "There are **3** r's in strawberry." },
      { type: "thinking", text: "", signature: "Eo0HCooH" },
    ]);
    expect(got.stopReason).toBe("stop");
  });
});
