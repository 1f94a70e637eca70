/**
 * Anthropic Messages headers a gateway should pass on (or map) to the backend.
 * @see https://docs.anthropic.com/en/api/versioning
 * @see https://docs.anthropic.com/en/api/beta-headers
 */
import { ANTHROPIC_VERSION } from "../../../dialects/anthropic-messages/index.ts";
import type { Probe } from "../probe.ts";
import { BOTH_MODES } from "../shared.ts";

export const anthropicHeaderProbes: Probe[] = [
  {
    id: "am-header-anthropic-beta",
    client: "anthropic-messages",
    axis: "header",
    field: "headers.anthropic-beta",
    request: {},
    headers: { "anthropic-beta": "context-1m-2025-08-07,token-efficient-tools-2025-02-19" },
    modes: BOTH_MODES,
    severity: "medium",
    backends: ["anthropic-messages"],
    note: "both beta flags reach an Anthropic backend, in the same header",
  },
  {
    id: "am-header-anthropic-version",
    client: "anthropic-messages",
    axis: "header",
    field: "headers.anthropic-version",
    request: {},
    headers: { "anthropic-version": ANTHROPIC_VERSION },
    modes: BOTH_MODES,
    severity: "low",
    backends: ["anthropic-messages"],
    note: "the version the client pinned reaches an Anthropic backend unchanged",
  },
  {
    id: "am-header-idempotency-key",
    client: "anthropic-messages",
    axis: "header",
    field: "headers.idempotency-key",
    request: {},
    headers: { "idempotency-key": "IDEMPROBE-5c1a2b3d" },
    modes: BOTH_MODES,
    severity: "low",
    note: "the key reaches the backend so a retried request is not billed twice",
  },
  {
    id: "am-header-user-agent",
    client: "anthropic-messages",
    axis: "header",
    field: "headers.user-agent",
    request: {},
    headers: { "user-agent": "UAPROBE-client/1.0" },
    modes: BOTH_MODES,
    severity: "low",
    note: "the client's user agent reaches the backend (or the gateway says it replaces it)",
  },
];
