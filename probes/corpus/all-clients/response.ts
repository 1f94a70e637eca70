/**
 * The reply side: the mock answers in the backend's dialect with a canned canonical reply,
 * and the client must receive the same meaning in its own dialect. Every template runs
 * against every backend (the mock renders the reply in whichever dialect the request
 * arrived in); the lens's no-equivalent table covers what a backend cannot say.
 */
import type { KnownIssue } from "../probe.ts";
import { BOTH_MODES } from "../shared.ts";
import { type ProbeTemplate, reply } from "./expand.ts";
import { toolCallReplyTemplates } from "./response-tool-calls.ts";

const litellmContentFilter: KnownIssue = {
  gateway: "litellm",
  versions: "*",
  expect: "mangled",
  url: "https://github.com/BerriAI/litellm/issues/40857",
  reproduced: false,
  backends: ["openai-chat"],
  note: "content_filter from an OpenAI upstream arrives on /v1/messages as end_turn (version not stated in the issue)",
};

export const responseTemplates: ProbeTemplate[] = [
  {
    slug: "reply-text",
    axis: "response",
    field: "text",
    upstream: {
      reply: reply({
        parts: [{ type: "text", text: "REPLYPROBE ünïcødé ✓ 日本" }],
        stopReason: "stop",
      }),
    },
    modes: BOTH_MODES,
    severity: "critical",
    note: "the client receives the same text, byte-equal (rig sanity)",
  },
  {
    slug: "reply-finish-length",
    axis: "response",
    field: "finish_reason",
    upstream: {
      reply: reply({ parts: [{ type: "text", text: "Truncated mid" }], stopReason: "length" }),
    },
    modes: BOTH_MODES,
    severity: "critical",
    note: "truncation arrives as length / max_tokens / incomplete, never as a natural stop",
  },
  {
    slug: "reply-finish-content-filter",
    axis: "response",
    field: "finish_reason",
    upstream: {
      reply: reply({ parts: [{ type: "text", text: "Partial" }], stopReason: "content_filter" }),
    },
    modes: BOTH_MODES,
    severity: "critical",
    knownIssues: { "anthropic-messages": [litellmContentFilter] },
    // Ollama has no filtered stop to send.
    backends: ["openai-chat", "openai-responses", "anthropic-messages", "gemini"],
    note: "a safety stop arrives as content_filter / refusal / SAFETY, never as end_turn or stop",
  },
  {
    slug: "reply-finish-refusal",
    axis: "response",
    field: "finish_reason",
    upstream: {
      reply: reply({
        parts: [{ type: "refusal", text: "REFUSEPROBE no." }],
        stopReason: "refusal",
      }),
    },
    modes: BOTH_MODES,
    severity: "high",
    // Only Anthropic says refusal as a stop reason; the others put it in content.
    backends: ["anthropic-messages"],
    note: "a refusal stop arrives as refusal / content_filter, never as a natural stop",
  },
  {
    slug: "reply-stop-sequence",
    axis: "response",
    field: "stop_sequence",
    requestFor: {
      "anthropic-messages": { stop_sequences: ["STOPPROBE"] },
      "openai-chat": { stop: ["STOPPROBE"] },
    },
    upstream: {
      reply: reply({
        parts: [{ type: "text", text: "Before the stop" }],
        stopReason: "stop_sequence",
        stopSequence: "STOPPROBE",
      }),
    },
    modes: BOTH_MODES,
    severity: "high",
    // Only Anthropic names the matched sequence in its reply.
    backends: ["anthropic-messages"],
    note: 'the matched sequence "STOPPROBE" arrives where the client dialect can say it',
  },
  ...toolCallReplyTemplates,
  {
    slug: "reply-refusal",
    axis: "response",
    field: "refusal",
    upstream: {
      reply: reply({ parts: [{ type: "refusal", text: "REFUSEPROBE I can't help with that." }] }),
    },
    modes: BOTH_MODES,
    severity: "high",
    // Refusal content parts exist in the OpenAI dialects only.
    backends: ["openai-chat", "openai-responses"],
    note: "the refusal arrives as refusal content (or its text), not as an empty answer",
  },
  {
    slug: "reply-thinking",
    axis: "response",
    field: "thinking",
    upstream: {
      reply: reply({
        parts: [
          { type: "thinking", text: "THINKPROBE reasoning", signature: "SIGPROBE-abc123==" },
          { type: "text", text: "Answer." },
        ],
        stopReason: "stop",
      }),
    },
    modes: BOTH_MODES,
    severity: "high",
    backends: ["anthropic-messages", "gemini"],
    note: "thinking arrives as reasoning (not visible text, not vanished)",
  },
  {
    slug: "reply-thinking-signature",
    axis: "response",
    field: "thinking.signature",
    upstream: {
      reply: reply({
        parts: [
          { type: "thinking", text: "THINKPROBE signed", signature: "SIGPROBE-def456==" },
          { type: "text", text: "Answer." },
        ],
        stopReason: "stop",
      }),
    },
    modes: BOTH_MODES,
    severity: "high",
    backends: ["anthropic-messages", "gemini"],
    note: "the signature arrives byte-equal where the client dialect can carry it",
  },
  {
    slug: "reply-reasoning-content",
    axis: "response",
    field: "reasoning",
    upstream: {
      reply: reply({
        parts: [
          { type: "reasoning", text: "REASONPROBE chain" },
          { type: "text", text: "Answer." },
        ],
        stopReason: "stop",
      }),
    },
    modes: BOTH_MODES,
    severity: "medium",
    backends: ["openai-chat", "ollama"],
    note: "DeepSeek-style reasoning_content arrives as reasoning, not merged into the text",
  },
  {
    slug: "reply-usage-input",
    axis: "response",
    field: "usage.input_tokens",
    upstream: {
      reply: reply({
        parts: [{ type: "text", text: "OK" }],
        stopReason: "stop",
        usage: { inputTokens: 1234, outputTokens: 56, totalTokens: 1290 },
      }),
    },
    modes: BOTH_MODES,
    severity: "medium",
    note: "1234 prompt tokens arrive as 1234 in the client's meaning",
  },
  {
    slug: "reply-usage-output",
    axis: "response",
    field: "usage.output_tokens",
    upstream: {
      reply: reply({
        parts: [{ type: "text", text: "OK" }],
        stopReason: "stop",
        usage: { inputTokens: 1234, outputTokens: 56, totalTokens: 1290 },
      }),
    },
    modes: BOTH_MODES,
    severity: "medium",
    note: "56 output tokens arrive as 56",
  },
  {
    slug: "reply-usage-cache-read",
    axis: "response",
    field: "usage.cache_read_tokens",
    upstream: {
      reply: reply({
        parts: [{ type: "text", text: "OK" }],
        stopReason: "stop",
        usage: { inputTokens: 2000, outputTokens: 5, cacheReadTokens: 1500 },
      }),
    },
    modes: BOTH_MODES,
    severity: "medium",
    backends: ["openai-chat", "openai-responses", "anthropic-messages", "gemini"],
    note: "1500 cached tokens arrive as cache reads, input keeping the client dialect's meaning",
  },
  {
    slug: "reply-usage-cache-write",
    axis: "response",
    field: "usage.cache_write_tokens",
    upstream: {
      reply: reply({
        parts: [{ type: "text", text: "OK" }],
        stopReason: "stop",
        usage: { inputTokens: 2000, outputTokens: 5, cacheWriteTokens: 1800 },
      }),
    },
    modes: BOTH_MODES,
    severity: "low",
    backends: ["anthropic-messages"],
    note: "1800 cache-creation tokens arrive where the client dialect can say it",
  },
  {
    slug: "reply-usage-reasoning",
    axis: "response",
    field: "usage.reasoning_tokens",
    upstream: {
      reply: reply({
        parts: [{ type: "text", text: "OK" }],
        stopReason: "stop",
        usage: { inputTokens: 100, outputTokens: 400, reasoningTokens: 350 },
      }),
    },
    modes: BOTH_MODES,
    severity: "low",
    backends: ["openai-chat", "openai-responses", "gemini"],
    note: "350 reasoning tokens arrive where the client dialect can say it",
  },
];
