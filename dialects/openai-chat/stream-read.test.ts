import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readReply } from "../reply.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const sse = (...data: unknown[]) =>
  data.map((d) => `data: ${typeof d === "string" ? d : JSON.stringify(d)}\n\n`).join("");
const chunk = (delta: unknown, finish: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describe("openai-chat stream reader", () => {
  it("assembles parallel tool calls by index and keeps usage sent after the finish", () => {
    const got = readReply(
      "openai-chat",
      { status: 200, body: fixture("stream-parallel-tools-usage.sse") },
      "stream",
    );
    expect(got.parts).toEqual([
      {
        type: "tool-call",
        id: "call_DdmO9pD3xa9XTPNJ32zg2hcA",
        name: "get_weather",
        arguments: '{"location": "Paris"}',
      },
      {
        type: "tool-call",
        id: "call_ABCDEF0123456789abcdefgh",
        name: "get_weather",
        arguments: '{"location": "Bogotá"}',
      },
    ]);
    expect(got.stopReason).toBe("tool_calls");
    expect(got.usage).toMatchObject({ inputTokens: 81, outputTokens: 48, totalTokens: 129 });
    expect(got.stream).toEqual({
      complete: true,
      terminalEvent: "[DONE]",
      events: 9,
      malformed: [],
      orphanFragments: 0,
    });
  });

  it("opens a new call when a new id arrives at a reused index (every call at index 0)", () => {
    const body = sse(
      chunk({ tool_calls: [{ index: 0, id: "a", function: { name: "f", arguments: "{}" } }] }),
      chunk({ tool_calls: [{ index: 0, id: "b", function: { name: "g", arguments: "" } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"x":1}' } }] }),
      chunk({}, "tool_calls"),
      "[DONE]",
    );
    const got = readReply("openai-chat", { status: 200, body }, "stream");
    expect(got.parts).toEqual([
      { type: "tool-call", id: "a", name: "f", arguments: "{}" },
      { type: "tool-call", id: "b", name: "g", arguments: '{"x":1}' },
    ]);
  });

  it("counts a fragment for no open call as an orphan", () => {
    const body = sse(
      chunk({ tool_calls: [{ index: 3, function: { arguments: "{}" } }] }),
      "[DONE]",
    );
    const got = readReply("openai-chat", { status: 200, body }, "stream");
    expect(got.stream?.orphanFragments).toBe(1);
    expect(got.parts).toEqual([]);
  });

  it("reports unparseable events and events after [DONE] as malformed, never throwing", () => {
    const body = `${sse(chunk({ content: "hi" }))}data: {"broken\n\n${sse("[DONE]", chunk({ content: "late" }))}`;
    const got = readReply("openai-chat", { status: 200, body }, "stream");
    expect(got.stream?.malformed).toHaveLength(2);
    expect(got.stream?.malformed[0]).toMatch(/^event 2: not JSON/);
    expect(got.stream?.malformed[1]).toBe("event 4: after the terminal event [DONE]");
    expect(got.stream?.complete).toBe(true);
  });

  it("reads a finish reason without [DONE] as an incomplete stream", () => {
    const got = readReply(
      "openai-chat",
      { status: 200, body: sse(chunk({ content: "hi" }, "stop")) },
      "stream",
    );
    expect(got.stopReason).toBe("stop");
    expect(got.stream?.complete).toBe(false);
  });
});

describe("openai-chat stream reader, calls without ids", () => {
  it("opens a call on an empty id or a bare name, and never mixes two of them", () => {
    const body = sse(
      chunk({ tool_calls: [{ index: 0, id: "", function: { name: "f", arguments: "" } }] }),
      chunk({ tool_calls: [{ index: 1, function: { name: "g", arguments: "" } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: "{}" } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: "[]" } }] }),
      "[DONE]",
    );
    const got = readReply("openai-chat", { status: 200, body }, "stream");
    expect(got.parts).toEqual([
      { type: "tool-call", id: "", name: "f", arguments: "{}" },
      { type: "tool-call", id: "", name: "g", arguments: "[]" },
    ]);
    expect(got.stream?.orphanFragments).toBe(0);
  });
});
