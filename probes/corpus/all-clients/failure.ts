/**
 * The failure axis: what the caller is told when the upstream fails (status truth, the
 * error's text, a gzip error body, a cut or failing stream), how a gateway retries (never a
 * 400, never forever, `Retry-After` spacing measured) and whether a slow upstream keeps the
 * caller's deadline. Judged by probes/lens/failure-judges.ts; docs/failure.md says what each
 * probe measures.
 */

import { BOTH_MODES } from "../shared.ts";
import { type ProbeTemplate, reply } from "./expand.ts";

const nonStream = ["non-stream"] as const;
const stream = ["stream"] as const;

/** One upstream status, its error type, and whether the body is the dialect's object or HTML. */
const STATUSES = [
  [400, "invalid_request_error"],
  [401, "authentication_error"],
  [403, "permission_error"],
  [404, "not_found_error"],
  [413, "request_too_large"],
  [422, "invalid_request_error"],
  [429, "rate_limit_error"],
  [500, "api_error"],
  [503, "api_error"],
] as const;

const statusTemplates: ProbeTemplate[] = STATUSES.map(([status, type]) => ({
  slug: `failure-status-${status}`,
  axis: "failure",
  field: "failure.status",
  upstream: { error: { status, message: `FAILPROBE-${status} upstream says no`, type } },
  modes: nonStream,
  severity: "high",
  note: `the upstream's ${status} reaches the client as a non-2xx of the same class, never as 2xx`,
}));

/**
 * Fallback: the first target fails with each status, the second answers. Sampling fields ride
 * along so the lens can tell whether the second target got the same request as the first.
 */
const FALLBACK_STATUSES = [
  [400, "invalid_request_error"],
  [429, "rate_limit_error"],
  [500, "api_error"],
  [503, "api_error"],
] as const;

const fallbackTemplates: ProbeTemplate[] = FALLBACK_STATUSES.map(([status, type]) => ({
  slug: `failure-fallback-${status}`,
  axis: "failure",
  field: "failure.fallback",
  requestFor: {
    "openai-chat": { temperature: 0.3, top_p: 0.9, max_tokens: 77, stop: ["FALLSTOP"] },
    "anthropic-messages": {
      temperature: 0.3,
      top_p: 0.9,
      max_tokens: 77,
      stop_sequences: ["FALLSTOP"],
    },
    "openai-responses": { temperature: 0.3, top_p: 0.9, max_output_tokens: 77 },
  },
  fallback: true,
  upstream: {
    sequence: [
      { error: { status, message: `FALLBACK-${status} first target says no`, type } },
      {
        reply: reply({
          parts: [{ type: "text", text: "FALLBACK-OK the second target answers" }],
          stopReason: "stop",
          // Real providers always report usage; Portkey's Anthropic transform reads it.
          usage: { inputTokens: 21, outputTokens: 7, totalTokens: 28 },
        }),
      },
    ],
  },
  modes: nonStream,
  severity: "high",
  note: `with two targets, a ${status} from the first moves the request to the second when the gateway is configured to move on ${status} (same request, its answer reaches the client); otherwise the ${status} reaches the client`,
}));

export const failureTemplates: ProbeTemplate[] = [
  ...statusTemplates,
  ...fallbackTemplates,
  {
    slug: "failure-status-502-html",
    axis: "failure",
    field: "failure.status",
    upstream: { error: { status: 502, message: "Bad Gateway", shape: "html" } },
    modes: BOTH_MODES,
    severity: "high",
    note: "a proxy's HTML 502 reaches the client as a 5xx, never as a 200",
  },
  {
    slug: "failure-status-529",
    axis: "failure",
    field: "failure.status",
    upstream: {
      error: { status: 529, message: "FAILPROBE-529 overloaded", type: "overloaded_error" },
    },
    modes: nonStream,
    severity: "medium",
    backends: ["anthropic-messages"],
    note: "Anthropic's 529 reaches the client as a 5xx, never as 2xx",
  },
  {
    slug: "failure-error-text-object",
    axis: "failure",
    field: "failure.error_text",
    upstream: {
      error: {
        status: 400,
        message: "FAILTEXT-OBJ field x is invalid",
        type: "invalid_request_error",
        shape: "object",
      },
    },
    modes: BOTH_MODES,
    severity: "high",
    note: "the upstream's error message text reaches the client's error (a prefix is fine; 'undefined' is not)",
  },
  {
    slug: "failure-error-text-string",
    axis: "failure",
    field: "failure.error_text",
    upstream: { error: { status: 400, message: "FAILTEXT-STR plain string", shape: "string" } },
    modes: BOTH_MODES,
    severity: "high",
    note: '{"error":"..."} as a string reaches the client as an error with that text',
  },
  {
    slug: "failure-gzip-error",
    axis: "failure",
    field: "failure.gzip",
    upstream: {
      error: { status: 500, message: "FAILGZIP compressed error", type: "api_error" },
      wire: { gzip: "always" },
    },
    modes: nonStream,
    severity: "high",
    note: "a gzip-encoded error body reaches the client readable, with its text",
  },
  {
    slug: "failure-retry-400",
    axis: "failure",
    field: "failure.retries",
    upstream: {
      error: { status: 400, message: "FAILRETRY-400 bad field", type: "invalid_request_error" },
    },
    modes: nonStream,
    severity: "high",
    note: "a 400 is not retried (one attempt reaches the backend) and reaches the client as 400",
  },
  {
    slug: "failure-retry-503-always",
    axis: "failure",
    field: "failure.retries",
    upstream: { error: { status: 503, message: "FAILRETRY-503 down", type: "api_error" } },
    modes: nonStream,
    severity: "high",
    note: "a lasting 503 ends (at most 10 attempts) with a 5xx at the client; the sweep counts attempts",
  },
  {
    slug: "failure-deadline-slow-upstream",
    axis: "failure",
    field: "failure.deadline",
    context: { deadlineMs: 8000 },
    upstream: {
      reply: reply({ parts: [{ type: "text", text: "FAILSLOW late answer" }], stopReason: "stop" }),
      wire: { headersDelayMs: 1500 },
    },
    modes: nonStream,
    severity: "medium",
    note: "an upstream slow by 1.5 s: the client gets the answer, or a truthful error, within its 8 s deadline",
  },
  {
    slug: "failure-stream-error-event",
    axis: "failure",
    field: "failure.stream_end",
    upstream: {
      reply: reply({
        parts: [{ type: "text", text: "FAILMID partial answer here" }],
        stopReason: "stop",
      }),
      plan: {
        textChunkSize: 4,
        errorAfter: { afterEvents: 2, message: "FAILMID overloaded", type: "overloaded_error" },
      },
    },
    modes: stream,
    severity: "critical",
    note: "an error event mid-stream never becomes a clean end at the client",
  },
  {
    slug: "failure-stream-reset",
    axis: "failure",
    field: "failure.stream_end",
    upstream: {
      reply: reply({
        parts: [{ type: "text", text: "FAILRESET partial answer here" }],
        stopReason: "stop",
      }),
      plan: { textChunkSize: 4, omitTerminal: true },
      wire: { end: "reset" },
    },
    modes: stream,
    severity: "critical",
    note: "a connection reset mid-stream never becomes a clean end at the client",
  },
];
