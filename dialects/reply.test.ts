import { describe, expect, it } from "vitest";
import type { CanonicalReply, Part, Usage } from "./canonical.ts";
import { DIALECTS, type Dialect } from "./dialect.ts";
import { encodeEvents, readReply, readReplyChunks, writeReply, writeReplyEvents } from "./reply.ts";
import type { StreamPlan } from "./stream-plan.ts";

const rich: CanonicalReply = {
  dialect: "openai-chat",
  id: "rich-reply-1",
  model: "model-x",
  parts: [
    { type: "thinking", text: "Let me think about\nthe weather.", signature: "EqQBCkYIARgCIkD" },
    { type: "text", text: "Checking Paris and Zürich ☀️ for you." },
    { type: "tool-call", id: "call_A1", name: "get_weather", arguments: '{"city":"Paris"}' },
    { type: "tool-call", id: "call_B2", name: "get_weather", arguments: '{"city":"Zürich","unit":"c"}' },
  ],
  stopReason: "tool_calls",
  usage: {
    inputTokens: 1200,
    outputTokens: 300,
    cacheReadTokens: 1000,
    cacheWriteTokens: 50,
    reasoningTokens: 120,
    totalTokens: 1500,
  },
  extras: {},
};

/**
 * What each dialect cannot carry of the rich reply, as data: the round trip must give back
 * exactly the rest. Thinking signatures have no place in Chat or Ollama (thinking becomes
 * reasoning text); cache writes are Anthropic-only; Anthropic has no reasoning or total count;
 * Ollama has no id and no cache or reasoning counts.
 */
const asReasoning = (parts: Part[]): Part[] =>
  parts.map((p) => (p.type === "thinking" ? { type: "reasoning", text: p.text } : p));
const pick = (u: Usage, keys: (keyof Usage)[]): Usage =>
  Object.fromEntries(keys.map((k) => [k, u[k]])) as Usage;
const ALL: (keyof Usage)[] = ["inputTokens", "outputTokens", "cacheReadTokens", "reasoningTokens", "totalTokens"];

const CARRIED: Record<Dialect, { id: boolean; parts: (p: Part[]) => Part[]; usage: (keyof Usage)[] }> = {
  "openai-chat": { id: true, parts: asReasoning, usage: ALL },
  "openai-responses": { id: true, parts: (p) => p, usage: ALL },
  "anthropic-messages": {
    id: true,
    parts: (p) => p,
    usage: ["inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens"],
  },
  gemini: { id: true, parts: (p) => p, usage: ALL },
  ollama: { id: false, parts: asReasoning, usage: ["inputTokens", "outputTokens"] },
};

function expectCarried(dialect: Dialect, got: CanonicalReply) {
  const carried = CARRIED[dialect];
  expect(got.error).toBeUndefined();
  expect(got.id).toBe(carried.id ? rich.id : undefined);
  expect(got.model).toBe(rich.model);
  expect(got.parts).toEqual(carried.parts(rich.parts));
  expect(got.stopReason).toBe("tool_calls");
  expect(got.usage).toEqual(pick(rich.usage as Usage, carried.usage));
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe.each(DIALECTS)("round trip through %s", (dialect) => {
  it("reads back what writeReply wrote", () => {
    const body = JSON.stringify(writeReply(dialect, rich));
    const got = readReply(dialect, { status: 200, body }, "non-stream");
    expectCarried(dialect, got);
    expect(got.stream).toBeUndefined();
  });

  const plans: [string, StreamPlan][] = [
    ["default plan", {}],
    [
      "small chunks, interleaved calls, pings, multi-line data",
      {
        textChunkSize: 3,
        toolArgumentChunkSize: 4,
        interleaveToolCalls: true,
        pingsAfter: [1, 4],
        comments: [{ after: 2, text: "keep-alive\nsecond line" }],
        multilineData: true,
      },
    ],
    ["usage with the finish", { usage: "with-finish", textChunkSize: 5 }],
  ];
  it.each(plans)("reads back its stream events (%s)", (_name, plan) => {
    const wire = encodeEvents(dialect, writeReplyEvents(dialect, rich, plan));
    const got = readReply(dialect, { status: 200, body: wire }, "stream");
    expectCarried(dialect, got);
    expect(got.stream?.complete).toBe(true);
    expect(got.stream?.malformed).toEqual([]);
    expect(got.stream?.orphanFragments).toBe(0);
    // The same bytes cut into 7-byte reads (inside multi-byte characters) read the same.
    const all = bytes(wire);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < all.length; i += 7) chunks.push(all.slice(i, i + 7));
    expect(readReplyChunks(dialect, chunks, 200, "stream")).toEqual(got);
  });

  it("reports a stream without its terminal event as incomplete", () => {
    const wire = encodeEvents(dialect, writeReplyEvents(dialect, rich, { omitTerminal: true }));
    const got = readReply(dialect, { status: 200, body: wire }, "stream");
    expect(got.stream?.complete).toBe(false);
    expect(got.stream?.terminalEvent).toBeUndefined();
  });

  it("reports a mid-stream error in the dialect's shape", () => {
    const plan: StreamPlan = { errorAfter: { afterEvents: 3, message: "upstream overloaded" } };
    const events = writeReplyEvents(dialect, rich, plan);
    expect(events).toHaveLength(4);
    const got = readReply(dialect, { status: 200, body: encodeEvents(dialect, events) }, "stream");
    expect(got.stream?.error?.message).toBe("upstream overloaded");
    expect(got.error?.message).toBe("upstream overloaded");
    expect(got.stream?.complete).toBe(false);
    expect(got.stream?.events).toBe(4);
  });
});
