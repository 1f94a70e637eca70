import { describe, expect, it } from "vitest";
import {
  type CanonicalReply,
  type Part,
  STOP_REASONS,
  type StopReason,
  type Usage,
} from "./canonical.ts";
import { DIALECTS, type Dialect } from "./dialect.ts";
import {
  createReplyStreamReader,
  encodeEvents,
  readReply,
  readReplyChunks,
  writeError,
  writeReply,
  writeReplyEvents,
} from "./reply.ts";
import type { StreamPlan } from "./stream-plan.ts";

const rich: CanonicalReply = {
  dialect: "openai-chat",
  id: "rich-reply-1",
  model: "model-x",
  parts: [
    { type: "thinking", text: "Let me think about\nthe weather.", signature: "EqQBCkYIARgCIkD" },
    { type: "text", text: "Checking Paris and Zürich ☀️ for you." },
    { type: "tool-call", id: "call_A1", name: "get_weather", arguments: '{"city":"Paris"}' },
    {
      type: "tool-call",
      id: "call_B2",
      name: "get_weather",
      arguments: '{"city":"Zürich","unit":"c"}',
    },
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
const ALL: (keyof Usage)[] = [
  "inputTokens",
  "outputTokens",
  "cacheReadTokens",
  "reasoningTokens",
  "totalTokens",
];

const CARRIED: Record<
  Dialect,
  { id: boolean; parts: (p: Part[]) => Part[]; usage: (keyof Usage)[] }
> = {
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

  it("reads reads pushed as bytes and text alike, and answers end() once", () => {
    const wire = encodeEvents(dialect, writeReplyEvents(dialect, rich, { textChunkSize: 4 }));
    const all = bytes(wire);
    // Cut after a line end: text pushed after bytes must not split a character between them.
    const half = all.indexOf(10, Math.floor(all.length / 2)) + 1;
    const reader = createReplyStreamReader(dialect);
    reader.push(all.slice(0, half));
    reader.push(new TextDecoder().decode(all.slice(half)));
    const got = reader.end();
    expect(got).toEqual(readReply(dialect, { status: 200, body: wire }, "stream"));
    reader.push("data: late\n\n");
    expect(reader.end()).toBe(got);
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

describe("writeError", () => {
  const bodies: Record<Dialect, unknown> = {
    "openai-chat": {
      error: {
        message: "No such model",
        type: "invalid_request_error",
        param: null,
        code: "model_not_found",
      },
    },
    "openai-responses": {
      error: {
        message: "No such model",
        type: "invalid_request_error",
        param: null,
        code: "model_not_found",
      },
    },
    "anthropic-messages": {
      type: "error",
      error: { type: "not_found_error", message: "No such model" },
    },
    gemini: { error: { code: 404, message: "No such model", status: "NOT_FOUND" } },
    ollama: { error: "No such model" },
  };
  it.each(DIALECTS)("writes %s's own error body and reads it back", (dialect) => {
    const wire = writeError(dialect, { status: 404, message: "No such model" });
    expect(wire.status).toBe(404);
    expect(wire.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(wire.body)).toEqual(bodies[dialect]);
    const got = readReply(dialect, wire, "non-stream");
    expect(got.error).toMatchObject({ status: 404, message: "No such model" });
  });

  it("writes the adapter-breaking variants", () => {
    expect(writeError("openai-chat", { status: 400, message: "bad", shape: "string" }).body).toBe(
      '{"error":"bad"}',
    );
    const html = writeError("gemini", { status: 502, message: "ignored", shape: "html" });
    expect(html.headers["content-type"]).toBe("text/html");
    expect(html.body).toContain("<title>502 Bad Gateway</title>");
    expect(writeError("ollama", { status: 503, message: "x", shape: "empty" })).toEqual({
      status: 503,
      headers: { "content-length": "0" },
      body: "",
    });
  });

  it("keeps a caller-given type", () => {
    const wire = writeError("anthropic-messages", {
      status: 400,
      message: "m",
      type: "billing_error",
    });
    expect(JSON.parse(wire.body)).toEqual({
      type: "error",
      error: { type: "billing_error", message: "m" },
    });
  });
});

describe("stop reasons through writer and reader", () => {
  /** What each canonical stop reason of a plain text reply reads back as, per dialect. */
  const READ_BACK: Record<Dialect, Record<StopReason, StopReason>> = {
    "openai-chat": {
      stop: "stop",
      length: "length",
      tool_calls: "tool_calls",
      content_filter: "content_filter",
      stop_sequence: "stop",
      refusal: "content_filter",
      pause: "stop",
      error: "stop",
      other: "stop",
    },
    "openai-responses": {
      // No function_call item in a plain reply: a tool turn cannot be inferred.
      stop: "stop",
      length: "length",
      tool_calls: "stop",
      content_filter: "content_filter",
      stop_sequence: "stop",
      refusal: "content_filter",
      pause: "stop",
      error: "error",
      other: "stop",
    },
    "anthropic-messages": {
      stop: "stop",
      length: "length",
      tool_calls: "tool_calls",
      content_filter: "refusal",
      stop_sequence: "stop_sequence",
      refusal: "refusal",
      pause: "pause",
      error: "stop",
      other: "stop",
    },
    gemini: {
      stop: "stop",
      length: "length",
      tool_calls: "stop",
      content_filter: "content_filter",
      stop_sequence: "stop",
      refusal: "content_filter",
      pause: "stop",
      error: "error",
      other: "other",
    },
    ollama: {
      stop: "stop",
      length: "length",
      tool_calls: "stop",
      content_filter: "stop",
      stop_sequence: "stop",
      refusal: "stop",
      pause: "stop",
      error: "stop",
      other: "stop",
    },
  };
  const cases = DIALECTS.flatMap((d) => STOP_REASONS.map((r) => [d, r] as const));
  it.each(cases)("%s: %s", (dialect, stopReason) => {
    const plain: CanonicalReply = {
      dialect: "openai-chat",
      parts: [{ type: "text", text: "x" }],
      stopReason,
      extras: {},
    };
    const json = readReply(
      dialect,
      { status: 200, body: JSON.stringify(writeReply(dialect, plain)) },
      "non-stream",
    );
    const wire = encodeEvents(dialect, writeReplyEvents(dialect, plain));
    const stream = readReply(dialect, { status: 200, body: wire }, "stream");
    expect(json.stopReason).toBe(READ_BACK[dialect][stopReason]);
    expect(stream.stopReason).toBe(READ_BACK[dialect][stopReason]);
  });

  it("carries Anthropic's matched stop sequence both ways", () => {
    const plain: CanonicalReply = {
      dialect: "openai-chat",
      parts: [{ type: "text", text: "1 2 3" }],
      stopReason: "stop_sequence",
      stopSequence: "STOPPROBE",
      extras: {},
    };
    const body = JSON.stringify(writeReply("anthropic-messages", plain));
    expect(readReply("anthropic-messages", { status: 200, body }, "non-stream").stopSequence).toBe(
      "STOPPROBE",
    );
    const wire = encodeEvents("anthropic-messages", writeReplyEvents("anthropic-messages", plain));
    expect(
      readReply("anthropic-messages", { status: 200, body: wire }, "stream").stopSequence,
    ).toBe("STOPPROBE");
  });
});

describe("refusal through writer and reader", () => {
  const refused: CanonicalReply = {
    dialect: "openai-chat",
    parts: [{ type: "refusal", text: "I can't help with that." }],
    stopReason: "refusal",
    extras: {},
  };
  /** Chat and Responses carry a refusal as such; the others can only send it as text. */
  const AS: Record<Dialect, "refusal" | "text"> = {
    "openai-chat": "refusal",
    "openai-responses": "refusal",
    "anthropic-messages": "text",
    gemini: "text",
    ollama: "text",
  };
  it.each(DIALECTS)("%s", (dialect) => {
    const expected = [{ type: AS[dialect], text: "I can't help with that." }];
    const body = JSON.stringify(writeReply(dialect, refused));
    expect(readReply(dialect, { status: 200, body }, "non-stream").parts).toEqual(expected);
    const wire = encodeEvents(dialect, writeReplyEvents(dialect, refused, { textChunkSize: 4 }));
    expect(readReply(dialect, { status: 200, body: wire }, "stream").parts).toEqual(expected);
  });
});
