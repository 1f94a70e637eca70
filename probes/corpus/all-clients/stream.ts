/**
 * Stream torture: the regression cases people who write provider adapters name (split
 * UTF-8, multi-line data, interleaved tool fragments, EOF without a terminal event, usage
 * after text, a mid-stream error), each judged on what the client finally receives.
 * `plan` cuts the reply into events (dialects/stream-plan.ts); `wire` cuts the bytes (the
 * mock's wire plan). Gemini and Ollama send tool calls whole, so fragment probes skip them.
 */
import { type ProbeTemplate, reply } from "./expand.ts";

const stream = ["stream"] as const;
const fragmenting = ["openai-chat", "openai-responses", "anthropic-messages"] as const;

export const streamTemplates: ProbeTemplate[] = [
  {
    slug: "stream-split-utf8",
    axis: "stream",
    field: "text",
    upstream: {
      reply: reply({
        parts: [{ type: "text", text: "ÜNÏCØDÉ 日本語 🚀 PROBE" }],
        stopReason: "stop",
      }),
      wire: {
        chunks: {
          at: [
            { inside: "utf8-char", nth: 1 },
            { inside: "utf8-char", nth: 4 },
          ],
        },
      },
    },
    modes: stream,
    severity: "high",
    note: "characters cut between two reads arrive whole, no U+FFFD",
  },
  {
    slug: "stream-byte-chunks",
    axis: "stream",
    field: "text",
    upstream: {
      reply: reply({
        parts: [{ type: "text", text: "CHUNKPROBE small writes survive" }],
        stopReason: "stop",
      }),
      wire: { chunks: { every: 7 } },
    },
    modes: stream,
    severity: "high",
    note: "events cut every 7 bytes (inside data: lines) arrive as the same text",
  },
  {
    slug: "stream-multiline-data",
    axis: "stream",
    field: "text",
    upstream: {
      reply: reply({ parts: [{ type: "text", text: "MULTILINEPROBE text" }], stopReason: "stop" }),
      plan: { multilineData: true },
    },
    modes: stream,
    severity: "medium",
    backends: ["openai-chat", "openai-responses", "anthropic-messages", "gemini"],
    note: "events whose JSON spans several data: lines arrive as the same text",
  },
  {
    slug: "stream-keepalive-pings",
    axis: "stream",
    field: "text",
    upstream: {
      reply: reply({ parts: [{ type: "text", text: "PINGPROBE text" }], stopReason: "stop" }),
      plan: { pingsAfter: [1, 2], comments: [{ after: 1, text: "keep-alive" }] },
    },
    modes: stream,
    severity: "medium",
    note: "pings and comments between events are skipped, the text is unchanged",
  },
  {
    slug: "stream-tool-arguments-fragments",
    axis: "stream",
    field: "tool_calls[].arguments",
    withTools: true,
    upstream: {
      reply: reply({
        parts: [
          {
            type: "tool-call",
            id: "call_FRAG01",
            name: "get_weather",
            arguments: '{"city":"Paris"}',
          },
        ],
        stopReason: "tool_calls",
      }),
      plan: { toolArgumentChunkSize: 3 },
    },
    modes: stream,
    severity: "critical",
    backends: fragmenting,
    note: "3-character argument fragments are joined into the same JSON",
  },
  {
    slug: "stream-interleaved-tool-fragments",
    axis: "stream",
    field: "tool_calls[].arguments",
    withTools: true,
    upstream: {
      reply: reply({
        parts: [
          {
            type: "tool-call",
            id: "call_IL_A",
            name: "get_weather",
            arguments: '{"city":"Paris"}',
          },
          { type: "tool-call", id: "call_IL_B", name: "get_time", arguments: '{"zone":"CET"}' },
        ],
        stopReason: "tool_calls",
      }),
      plan: { toolArgumentChunkSize: 4, interleaveToolCalls: true },
    },
    modes: stream,
    severity: "critical",
    backends: fragmenting,
    note: "fragments of two calls sent round-robin are assembled by index into two intact calls",
  },
  {
    slug: "stream-eof-without-terminal",
    axis: "stream",
    field: "stream.terminal",
    upstream: {
      reply: reply({ parts: [{ type: "text", text: "EOFPROBE cut" }], stopReason: "stop" }),
      plan: { omitTerminal: true },
    },
    modes: stream,
    severity: "critical",
    note: "an upstream that ends without its terminal event is not turned into a complete stream",
  },
  {
    slug: "stream-usage-after-text",
    axis: "stream",
    field: "usage.output_tokens",
    requestFor: { "openai-chat": { stream_options: { include_usage: true } } },
    upstream: {
      reply: reply({
        parts: [{ type: "text", text: "USAGEPROBE" }],
        stopReason: "stop",
        usage: { inputTokens: 321, outputTokens: 45 },
      }),
      plan: { usage: "final" },
    },
    modes: stream,
    severity: "medium",
    note: "usage that arrives after the last text still reaches the client (45 output tokens)",
  },
  {
    slug: "stream-mid-error",
    axis: "stream",
    field: "error.message",
    upstream: {
      reply: reply({
        parts: [{ type: "text", text: "MIDPROBE partial answer" }],
        stopReason: "stop",
      }),
      plan: {
        textChunkSize: 4,
        errorAfter: { afterEvents: 2, message: "MIDERRPROBE overloaded", type: "overloaded_error" },
      },
    },
    modes: stream,
    severity: "critical",
    note: "an error event mid-stream reaches the client as an error, not as a clean end",
  },
];
