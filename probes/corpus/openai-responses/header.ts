/**
 * Headers an OpenAI client sends that a gateway should pass on.
 * @see https://platform.openai.com/docs/api-reference/debugging-requests
 */
import type { Probe } from "../probe.ts";
import { BOTH_MODES } from "../shared.ts";

export const responsesHeaderProbes: Probe[] = [
  {
    id: "or-header-idempotency-key",
    client: "openai-responses",
    axis: "header",
    field: "headers.idempotency-key",
    request: {},
    headers: { "idempotency-key": "IDEMPROBE-or-7d8e9f" },
    modes: BOTH_MODES,
    severity: "low",
    note: "the key reaches the backend so a retried request is not billed twice",
  },
  {
    id: "or-header-user-agent",
    client: "openai-responses",
    axis: "header",
    field: "headers.user-agent",
    request: {},
    headers: { "user-agent": "UAPROBE-or-client/1.0" },
    modes: BOTH_MODES,
    severity: "low",
    note: "the client's user agent reaches the backend (or the gateway says it replaces it)",
  },
];
