/**
 * Responses parameters the canonical model keeps raw: on a Responses backend they must
 * pass through unchanged (the native route's promise).
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
import type { Probe } from "../probe.ts";
import { BOTH_MODES } from "../shared.ts";

const native = ["openai-responses"] as const;

export const responsesPassthroughProbes: Probe[] = [
  {
    id: "or-store",
    client: "openai-responses",
    axis: "request",
    field: "store",
    request: { store: false },
    modes: BOTH_MODES,
    backends: native,
    severity: "medium",
    note: "store: false (do not retain) reaches a Responses backend as false",
  },
  {
    id: "or-previous-response-id",
    client: "openai-responses",
    axis: "request",
    field: "previous_response_id",
    request: { previous_response_id: "resp_PREVPROBE0123" },
    modes: BOTH_MODES,
    backends: native,
    severity: "high",
    note: "the conversation link reaches a Responses backend unchanged",
  },
  {
    id: "or-truncation",
    client: "openai-responses",
    axis: "request",
    field: "truncation",
    request: { truncation: "auto" },
    modes: BOTH_MODES,
    backends: native,
    severity: "low",
    note: "truncation auto reaches a Responses backend",
  },
  {
    id: "or-include",
    client: "openai-responses",
    axis: "request",
    field: "include",
    request: { include: ["reasoning.encrypted_content"] },
    modes: BOTH_MODES,
    backends: native,
    severity: "medium",
    note: "include reasoning.encrypted_content reaches a Responses backend",
  },
  {
    id: "or-max-tool-calls",
    client: "openai-responses",
    axis: "request",
    field: "max_tool_calls",
    request: { max_tool_calls: 2 },
    modes: BOTH_MODES,
    backends: native,
    severity: "low",
    note: "max_tool_calls 2 reaches a Responses backend",
  },
];
