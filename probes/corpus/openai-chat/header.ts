/**
 * Headers an OpenAI client sends that a gateway should pass on.
 * @see https://platform.openai.com/docs/api-reference/debugging-requests
 */
import type { Probe } from "../probe.ts";
import { BOTH_MODES } from "../shared.ts";

export const chatHeaderProbes: Probe[] = [
  {
    id: "oc-header-idempotency-key",
    client: "openai-chat",
    axis: "header",
    field: "headers.idempotency-key",
    request: {},
    headers: { "idempotency-key": "IDEMPROBE-oc-7d8e9f" },
    modes: BOTH_MODES,
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
    modes: BOTH_MODES,
    severity: "low",
    note: "the client's user agent reaches the backend (or the gateway says it replaces it)",
  },
];
