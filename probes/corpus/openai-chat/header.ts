/**
 * Headers an OpenAI client sends that a gateway should pass on.
 * @see https://platform.openai.com/docs/api-reference/debugging-requests
 */
import type { Probe } from "../probe.ts";

const both = ["stream", "non-stream"] as const;

export const chatHeaderProbes: Probe[] = [
  {
    id: "oc-header-idempotency-key",
    client: "openai-chat",
    axis: "header",
    field: "headers.idempotency-key",
    request: {},
    headers: { "idempotency-key": "IDEMPROBE-oc-7d8e9f" },
    modes: both,
    severity: "low",
    note: "the key reaches the backend so a retried request is not billed twice",
  },
  {
    id: "oc-header-user-agent",
    client: "openai-chat",
    axis: "header",
    field: "headers.user-agent",
    request: {},
    headers: { "user-agent": "UAPROBE-oc-client/1.0" },
    modes: both,
    severity: "low",
    note: "the client's user agent reaches the backend (or the gateway says it replaces it)",
  },
];
