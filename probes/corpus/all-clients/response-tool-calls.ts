/**
 * The reply side's tool calls: the mock answers with a canned call (finish reason, ids,
 * names, arguments, parallel calls, text before a call) and the client must receive the
 * same call in its own dialect. Templates, like response.ts, run against every backend.
 */
import type { KnownIssue } from "../probe.ts";
import { BOTH_MODES } from "../shared.ts";
import { type ProbeTemplate, reply } from "./expand.ts";

const CALL = { type: "tool-call", name: "get_weather", arguments: '{"city":"Paris"}' } as const;

const bifrostMixedTurn: KnownIssue = {
  gateway: "bifrost",
  versions: ["1.6.6", "1.6.9"],
  expect: "mangled",
  url: "https://github.com/maximhq/bifrost/issues/6123",
  reproduced: false,
  backends: ["openai-chat"],
  modes: ["stream"],
  note: "streamed text + tool call from an OpenAI-compatible upstream ends with end_turn",
};

export const toolCallReplyTemplates: ProbeTemplate[] = [
  {
    slug: "reply-finish-tool-calls",
    axis: "response",
    field: "finish_reason",
    withTools: true,
    upstream: {
      reply: reply({ parts: [{ ...CALL, id: "call_REPLY01" }], stopReason: "tool_calls" }),
    },
    modes: BOTH_MODES,
    severity: "critical",
    note: "a tool turn arrives as tool_calls / tool_use, even from Gemini's STOP or Ollama's stop",
  },
  {
    slug: "reply-text-then-tool-call",
    axis: "response",
    field: "finish_reason",
    withTools: true,
    upstream: {
      reply: reply({
        parts: [
          { type: "text", text: "Let me check." },
          { ...CALL, id: "call_MIXED01" },
        ],
        stopReason: "tool_calls",
      }),
    },
    modes: BOTH_MODES,
    severity: "critical",
    knownIssues: { "anthropic-messages": [bifrostMixedTurn] },
    note: "a text + tool-call turn still ends as a tool turn",
  },
  {
    slug: "reply-finish-pause",
    axis: "response",
    field: "finish_reason",
    upstream: { reply: reply({ parts: [{ type: "text", text: "Paused" }], stopReason: "pause" }) },
    modes: BOTH_MODES,
    severity: "medium",
    backends: ["anthropic-messages"],
    // The OpenAI dialects have no paused turn to report it as.
    clients: ["anthropic-messages"],
    note: "pause_turn arrives as pause_turn, or anything but a natural end",
  },
  {
    slug: "reply-tool-call-id",
    axis: "response",
    field: "tool_calls[].id",
    withTools: true,
    upstream: {
      reply: reply({ parts: [{ ...CALL, id: "call_IDPROBE8899" }], stopReason: "tool_calls" }),
    },
    modes: BOTH_MODES,
    severity: "critical",
    note: "the call id arrives unchanged (or rewritten with a working inverse on the next turn)",
  },
  {
    slug: "reply-tool-call-id-punctuated",
    axis: "response",
    field: "tool_calls[].id",
    withTools: true,
    upstream: {
      reply: reply({
        parts: [{ ...CALL, id: "functions.get_weather:0" }],
        stopReason: "tool_calls",
      }),
    },
    modes: BOTH_MODES,
    severity: "high",
    note: "a Kimi-style id with . and : arrives unchanged",
  },
  {
    slug: "reply-tool-calls-parallel",
    axis: "response",
    field: "tool_calls[].id",
    withTools: true,
    upstream: {
      reply: reply({
        parts: [
          { ...CALL, id: "call_PAR_A" },
          { type: "tool-call", id: "call_PAR_B", name: "get_time", arguments: '{"zone":"CET"}' },
        ],
        stopReason: "tool_calls",
      }),
    },
    modes: BOTH_MODES,
    severity: "critical",
    note: "both calls arrive, in order, each with its own id, name and arguments",
  },
  {
    slug: "reply-tool-call-name",
    axis: "response",
    field: "tool_calls[].name",
    withTools: true,
    upstream: {
      reply: reply({ parts: [{ ...CALL, id: "call_NAME01" }], stopReason: "tool_calls" }),
    },
    modes: BOTH_MODES,
    severity: "high",
    note: "the call names get_weather",
  },
  {
    slug: "reply-tool-call-arguments",
    axis: "response",
    field: "tool_calls[].arguments",
    withTools: true,
    upstream: {
      reply: reply({
        parts: [{ ...CALL, id: "call_ARGS01", arguments: '{"city":"São Paulo","days":3}' }],
        stopReason: "tool_calls",
      }),
    },
    modes: BOTH_MODES,
    severity: "critical",
    note: "the arguments arrive equal by value, non-ASCII kept",
  },
  {
    slug: "reply-tool-call-empty-arguments",
    axis: "response",
    field: "tool_calls[].arguments",
    withTools: true,
    upstream: {
      reply: reply({
        parts: [{ type: "tool-call", id: "call_EMPTY01", name: "get_weather", arguments: "{}" }],
        stopReason: "tool_calls",
      }),
    },
    modes: BOTH_MODES,
    severity: "high",
    note: 'empty arguments arrive as "{}", not as "" or null',
  },
  {
    slug: "reply-tool-call-malformed-arguments",
    axis: "response",
    field: "tool_calls[].arguments",
    withTools: true,
    upstream: {
      reply: reply({
        parts: [
          { type: "tool-call", id: "call_BAD01", name: "get_weather", arguments: '{"city": "Par' },
        ],
        stopReason: "tool_calls",
      }),
    },
    modes: BOTH_MODES,
    backends: ["openai-chat", "openai-responses"],
    note: "malformed argument JSON arrives as sent (or the gateway errors), never silently replaced by {}",
    severity: "high",
  },
];
