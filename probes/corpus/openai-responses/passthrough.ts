/**
 * Documented Responses parameters no canonical attribute models (the canonical request keeps
 * them raw): judged as `extras.<key>` against each target's absent rows, so they run on every
 * backend whose verdict the rows can decide (docs/lens.md, "A client key no reader maps").
 * The ones modelled as attributes (store, the logprobs include entry, MCP tools) are in
 * request.ts.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
import type { Probe } from "../probe.ts";
import { BOTH_MODES } from "../shared.ts";

export const responsesPassthroughProbes: Probe[] = [
  {
    id: "or-previous-response-id",
    client: "openai-responses",
    axis: "request",
    field: "previous_response_id",
    request: { previous_response_id: "resp_PREVPROBE0123" },
    modes: BOTH_MODES,
    severity: "high",
    note: "the conversation link reaches a Responses backend unchanged; no-equivalent on stateless backends",
  },
  {
    id: "or-truncation",
    client: "openai-responses",
    axis: "request",
    field: "truncation",
    request: { truncation: "auto" },
    modes: BOTH_MODES,
    // Ollama's /api/chat documents a `truncate` of its own, not modelled: not judged there.
    backends: ["openai-responses", "openai-chat", "anthropic-messages", "gemini"],
    severity: "low",
    note: "truncation auto reaches a Responses backend; no-equivalent on Chat, Anthropic, Gemini",
  },
  {
    id: "or-include",
    client: "openai-responses",
    axis: "request",
    field: "include",
    request: { include: ["reasoning.encrypted_content"] },
    modes: BOTH_MODES,
    severity: "medium",
    note: "include reasoning.encrypted_content reaches a Responses backend; no-equivalent elsewhere",
  },
  {
    id: "or-max-tool-calls",
    client: "openai-responses",
    axis: "request",
    field: "max_tool_calls",
    request: { max_tool_calls: 2 },
    modes: BOTH_MODES,
    severity: "low",
    note: "max_tool_calls 2 reaches a Responses backend; no-equivalent elsewhere",
  },
];
