/**
 * Upstream errors in the shapes that break adapters (error object, error string, HTML from
 * a proxy, empty body) and retry sequences. The client must see a failure with the status
 * class kept and the message kept where there is one; a 200 built from an error is mangled.
 */

import { BOTH_MODES } from "../shared.ts";
import { type ProbeTemplate, reply } from "./expand.ts";

const ok = reply({ parts: [{ type: "text", text: "RETRYPROBE finally" }], stopReason: "stop" });

export const errorTemplates: ProbeTemplate[] = [
  {
    slug: "error-object-status",
    axis: "error",
    field: "error.status",
    upstream: {
      error: {
        status: 400,
        message: "ERRPROBE bad request",
        type: "invalid_request_error",
        shape: "object",
      },
    },
    modes: BOTH_MODES,
    severity: "high",
    note: "a 400 reaches the client as a 400 (not 200, not 500)",
  },
  {
    slug: "error-object-message",
    axis: "error",
    field: "error.message",
    upstream: {
      error: {
        status: 400,
        message: "ERRPROBE-MSG field x is invalid",
        type: "invalid_request_error",
      },
    },
    modes: BOTH_MODES,
    severity: "medium",
    note: "the upstream message text reaches the client inside its error",
  },
  {
    slug: "error-string-body",
    axis: "error",
    field: "error.message",
    upstream: { error: { status: 400, message: "ERRPROBE-STRING plain error", shape: "string" } },
    modes: BOTH_MODES,
    severity: "high",
    note: '{"error":"..."} as a string still reaches the client as an error with that text',
  },
  {
    slug: "error-html-502",
    axis: "error",
    field: "error.status",
    upstream: { error: { status: 502, message: "Bad Gateway", shape: "html" } },
    modes: BOTH_MODES,
    severity: "high",
    note: "a proxy's HTML 502 reaches the client as a 5xx error, not a crash or a 200",
  },
  {
    slug: "error-empty-500",
    axis: "error",
    field: "error.status",
    upstream: { error: { status: 500, message: "", shape: "empty" } },
    modes: BOTH_MODES,
    severity: "medium",
    note: "an empty-bodied 500 reaches the client as a 5xx error",
  },
  {
    slug: "error-401",
    axis: "error",
    field: "error.status",
    upstream: {
      error: { status: 401, message: "ERRPROBE invalid key", type: "authentication_error" },
    },
    modes: BOTH_MODES,
    severity: "high",
    note: "the backend's 401 reaches the client as a 4xx auth error, not a 200",
  },
  {
    slug: "error-429",
    axis: "error",
    field: "error.status",
    upstream: {
      error: {
        status: 429,
        message: "ERRPROBE rate limited",
        type: "rate_limit_error",
        headers: { "retry-after": "30" },
      },
    },
    modes: BOTH_MODES,
    severity: "high",
    note: "a lasting 429 reaches the client as 429 (after any retries), not as 500 or 200",
  },
  {
    slug: "error-529-overloaded",
    axis: "error",
    field: "error.status",
    upstream: { error: { status: 529, message: "ERRPROBE overloaded", type: "overloaded_error" } },
    modes: BOTH_MODES,
    severity: "medium",
    backends: ["anthropic-messages"],
    note: "Anthropic's 529 reaches the client as a 5xx/overloaded error",
  },
  {
    slug: "retry-503-then-ok",
    axis: "failure",
    field: "failure.retries",
    upstream: {
      sequence: [
        { error: { status: 503, message: "ERRPROBE unavailable", type: "api_error" } },
        { error: { status: 503, message: "ERRPROBE unavailable", type: "api_error" } },
        { reply: ok },
      ],
    },
    modes: BOTH_MODES,
    severity: "medium",
    note: "either the retried answer arrives intact or the 503 does; the sweep counts the attempts",
  },
  {
    slug: "retry-429-then-ok",
    axis: "failure",
    field: "failure.retries",
    upstream: {
      sequence: [
        {
          error: {
            status: 429,
            message: "ERRPROBE slow down",
            type: "rate_limit_error",
            headers: { "retry-after": "1" },
          },
        },
        { reply: ok },
      ],
    },
    modes: BOTH_MODES,
    severity: "medium",
    note: "either the retried answer arrives intact or the 429 does; retry-after is honoured",
  },
];
