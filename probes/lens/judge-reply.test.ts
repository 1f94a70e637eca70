import { describe, expect, it } from "vitest";
import type { CanonicalReply, Part } from "../../dialects/canonical.ts";
import type { ClientDialect, Dialect, Mode } from "../../dialects/dialect.ts";
import type { Verdict } from "../verdict.ts";
import { judgeReply, type ReplyPair } from "./judge-reply.ts";

function reply(dialect: Dialect, over: Partial<CanonicalReply> = {}): CanonicalReply {
  return {
    dialect,
    parts: [{ type: "text", text: "hello" }],
    stopReason: "stop",
    extras: {},
    ...over,
  };
}

function judge(
  upstream: CanonicalReply,
  client: CanonicalReply,
  statuses: [number, number] = [200, 200],
  mode: Mode = "non-stream",
): Verdict[] {
  const pair: ReplyPair = {
    clientDialect: client.dialect as ClientDialect,
    backend: upstream.dialect,
    mode,
    upstream,
    upstreamStatus: statuses[0],
    client,
    clientStatus: statuses[1],
  };
  return judgeReply(pair);
}

function only(verdicts: Verdict[], field: string): Verdict {
  const found = verdicts.filter((v) => v.field === field);
  expect(found, `verdicts for ${field}: ${JSON.stringify(verdicts)}`).toHaveLength(1);
  return found[0] as Verdict;
}

const call = (id: string): Part => ({
  type: "tool-call",
  id,
  name: "get_weather",
  arguments: '{"city":"Oslo"}',
});

describe("stop reasons", () => {
  it("maps through the client dialect's table", () => {
    const up = reply("anthropic-messages", {
      parts: [call("toolu_1")],
      stopReason: "tool_calls",
      rawStopReason: "tool_use",
    });
    const down = reply("openai-chat", {
      parts: [call("toolu_1")],
      stopReason: "tool_calls",
      rawStopReason: "tool_calls",
    });
    expect(only(judge(up, down), "finish_reason")).toMatchObject({
      verdict: "preserved",
      reason: 'finish_reason: "tool_calls" (tool_use) → "tool_calls" (tool_calls)',
    });
    // Chat has no stop_sequence value: "stop" is the faithful spelling.
    const seq = reply("anthropic-messages", {
      stopReason: "stop_sequence",
      stopSequence: "STOPPROBE",
    });
    const verdicts = judge(seq, reply("openai-chat", { stopReason: "stop" }));
    expect(only(verdicts, "finish_reason").verdict).toBe("preserved");
    expect(only(verdicts, "stop_sequence").verdict).toBe("no-equivalent");
    expect(
      only(judge(seq, reply("anthropic-messages", { stopReason: "stop" })), "finish_reason")
        .verdict,
    ).toBe("mangled");
    expect(
      only(
        judge(seq, reply("anthropic-messages", { stopReason: "stop_sequence" })),
        "stop_sequence",
      ).verdict,
    ).toBe("dropped");
  });

  it("calls erasing truncation or a safety stop into a natural stop mangled", () => {
    const length = judge(
      reply("gemini", { stopReason: "length" }),
      reply("openai-chat", { stopReason: "stop" }),
    );
    expect(only(length, "finish_reason")).toMatchObject({
      verdict: "mangled",
      cause: "erased-truncation",
    });
    const filter = judge(
      reply("openai-chat", { stopReason: "content_filter" }),
      reply("anthropic-messages", { stopReason: "stop" }),
    );
    expect(only(filter, "finish_reason")).toMatchObject({
      verdict: "mangled",
      cause: "erased-safety",
    });
  });

  it("carries a refusal stop as OpenAI spells it: a refusal part with a natural stop", () => {
    const upstream = reply("anthropic-messages", {
      parts: [{ type: "text", text: "I can't help with that." }],
      stopReason: "refusal",
    });
    const asRefusalPart = judge(
      upstream,
      reply("openai-chat", {
        parts: [{ type: "refusal", text: "I can't help with that." }],
        stopReason: "stop",
      }),
    );
    expect(only(asRefusalPart, "finish_reason").verdict).toBe("preserved");
    const asPlainText = judge(
      upstream,
      reply("openai-chat", {
        parts: [{ type: "text", text: "I can't help with that." }],
        stopReason: "stop",
      }),
    );
    expect(only(asPlainText, "finish_reason")).toMatchObject({
      verdict: "mangled",
      cause: "erased-safety",
    });
  });

  it("accepts a Gemini tool turn (read as tool_calls from its content) as tool_use", () => {
    const up = reply("gemini", {
      parts: [call("c1")],
      stopReason: "tool_calls",
      rawStopReason: "STOP",
    });
    const down = reply("anthropic-messages", { parts: [call("c1")], stopReason: "tool_calls" });
    expect(only(judge(up, down), "finish_reason").verdict).toBe("preserved");
    const lost = reply("anthropic-messages", { parts: [call("c1")], stopReason: "stop" });
    expect(only(judge(up, lost), "finish_reason")).toMatchObject({
      verdict: "mangled",
      cause: "erased-tool-turn",
    });
  });
});

describe("content and usage", () => {
  it("flags rewritten tool-call ids and changed arguments", () => {
    const up = reply("openai-chat", { parts: [call("call_abc")], stopReason: "tool_calls" });
    const down = reply("anthropic-messages", {
      parts: [{ type: "tool-call", id: "toolu_x", name: "get_weather", arguments: "{}" }],
      stopReason: "tool_calls",
    });
    const verdicts = judge(up, down);
    expect(only(verdicts, "tool_calls[].id")).toMatchObject({
      verdict: "mangled",
      cause: "id-rewritten",
    });
    expect(only(verdicts, "tool_calls[].name").verdict).toBe("preserved");
    expect(only(verdicts, "tool_calls[].arguments")).toMatchObject({
      verdict: "mangled",
      reason: 'tool_calls[].arguments: [{"city":"Oslo"}] → [{}]',
    });
  });

  it("requires thinking to arrive as reasoning, not visible text, and not vanish", () => {
    const up = reply("anthropic-messages", {
      parts: [
        { type: "thinking", text: "secret plan", signature: "sig" },
        { type: "text", text: "hi" },
      ],
    });
    const asReasoning = reply("openai-chat", {
      parts: [
        { type: "reasoning", text: "secret plan" },
        { type: "text", text: "hi" },
      ],
    });
    const verdicts = judge(up, asReasoning);
    expect(only(verdicts, "thinking").verdict).toBe("preserved");
    expect(only(verdicts, "thinking.signature").verdict).toBe("no-equivalent");
    const leaked = reply("openai-chat", { parts: [{ type: "text", text: "secret planhi" }] });
    expect(only(judge(up, leaked), "thinking")).toMatchObject({
      verdict: "mangled",
      cause: "reasoning-as-text",
    });
    const gone = reply("anthropic-messages", { parts: [{ type: "text", text: "hi" }] });
    expect(only(judge(up, gone), "thinking").verdict).toBe("dropped");
    expect(only(judge(up, gone), "thinking.signature").verdict).toBe("dropped");
  });

  it("compares usage by canonical meaning", () => {
    const up = reply("openai-chat", {
      usage: { inputTokens: 120, outputTokens: 8, cacheReadTokens: 100 },
    });
    const good = judge(
      up,
      reply("anthropic-messages", {
        usage: { inputTokens: 120, outputTokens: 8, cacheReadTokens: 100 },
      }),
    );
    expect(good.filter((v) => v.field.startsWith("usage.")).map((v) => v.verdict)).toEqual([
      "preserved",
      "preserved",
      "preserved",
    ]);
    // The Anthropic input_tokens number (cache excluded) passed through as if it were the total.
    const bad = judge(
      up,
      reply("anthropic-messages", { usage: { inputTokens: 20, outputTokens: 8 } }),
    );
    expect(only(bad, "usage.input_tokens")).toMatchObject({
      verdict: "mangled",
      reason: "usage.input_tokens: 120 → 20",
    });
    expect(only(bad, "usage.cache_read_tokens").verdict).toBe("dropped");
    const write = judge(
      reply("anthropic-messages", { usage: { cacheWriteTokens: 50 } }),
      reply("openai-chat", { usage: {} }),
    );
    expect(only(write, "usage.cache_write_tokens").verdict).toBe("no-equivalent");
  });
});

describe("status truth", () => {
  const error = (status: number) =>
    reply("anthropic-messages", {
      parts: [],
      stopReason: undefined,
      error: { status, type: "rate_limit_error", message: "slow down" },
    });

  it("calls an upstream error relabelled 2xx mangled", () => {
    const verdicts = judge(error(429), reply("openai-chat", { parts: [] }), [429, 200]);
    expect(only(verdicts, "error.status")).toMatchObject({
      verdict: "mangled",
      cause: "status-relabelled",
      reason: "error.status: 429 → 200",
    });
    expect(only(verdicts, "error.message").verdict).toBe("dropped");
  });

  it("keeps status, message and type family", () => {
    const down = reply("openai-chat", {
      parts: [],
      error: { status: 429, type: "rate_limit_exceeded", message: "Upstream: slow down" },
    });
    const verdicts = judge(error(429), down, [429, 429]);
    expect(verdicts.map((v) => [v.field, v.verdict])).toEqual([
      ["error.status", "preserved"],
      ["error.message", "preserved"],
      ["error.type", "preserved"],
    ]);
    expect(only(judge(error(429), down, [429, 500]), "error.status")).toMatchObject({
      verdict: "mangled",
      cause: "status-changed",
    });
  });

  it("calls the gateway's own error over a good upstream reply rejected", () => {
    const down = reply("openai-chat", {
      parts: [],
      error: { status: 400, message: "unsupported field top_k" },
    });
    const verdicts = judge(reply("anthropic-messages"), down, [200, 400]);
    expect(verdicts.length).toBeGreaterThan(0);
    expect(new Set(verdicts.map((v) => v.verdict))).toEqual(new Set(["rejected"]));
    expect(only(verdicts, "text").reason).toBe(
      'text: upstream 200 → client 400 "unsupported field top_k"',
    );
  });
});

describe("stream lifecycle", () => {
  const lifecycle = (
    complete: boolean,
    extra: Partial<NonNullable<CanonicalReply["stream"]>> = {},
  ) => ({
    complete,
    events: 5,
    malformed: [],
    orphanFragments: 0,
    ...extra,
  });

  it("calls a client stream that lost its terminal event dropped, cause truncated-stream", () => {
    const up = reply("openai-chat", { stream: lifecycle(true, { terminalEvent: "[DONE]" }) });
    const down = reply("anthropic-messages", { stream: lifecycle(false) });
    const verdicts = judge(up, down, [200, 200], "stream");
    expect(only(verdicts, "stream.terminal")).toMatchObject({
      verdict: "dropped",
      cause: "truncated-stream",
    });
    const fine = judge(
      up,
      reply("anthropic-messages", { stream: lifecycle(true, { terminalEvent: "message_stop" }) }),
      [200, 200],
      "stream",
    );
    expect(only(fine, "stream.terminal").verdict).toBe("preserved");
    expect(only(fine, "stream.framing").verdict).toBe("preserved");
  });

  it("calls a clean end after an upstream mid-stream error mangled", () => {
    const up = reply("anthropic-messages", {
      stream: lifecycle(false, { error: { type: "overloaded_error", message: "Overloaded" } }),
    });
    const down = reply("openai-chat", { stream: lifecycle(true, { terminalEvent: "[DONE]" }) });
    const verdicts = judge(up, down, [200, 200], "stream");
    expect(only(verdicts, "stream.terminal")).toMatchObject({
      verdict: "mangled",
      cause: "error-swallowed",
    });
    expect(only(verdicts, "error.message").verdict).toBe("dropped");
  });

  it("calls malformed client events mangled", () => {
    const up = reply("openai-chat", { stream: lifecycle(true) });
    const down = reply("openai-chat", {
      stream: lifecycle(true, { malformed: ["data is not JSON: {oops"] }),
    });
    expect(only(judge(up, down, [200, 200], "stream"), "stream.framing")).toMatchObject({
      verdict: "mangled",
      cause: "malformed-events",
    });
  });
});
