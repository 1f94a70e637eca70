/**
 * Ollama `done_reason` ↔ canonical stop reason, one table read in both directions.
 * Ollama's last chunk says `stop` after a tool call: the reader infers `tool_calls` from
 * `message.tool_calls`, and the writer writes `stop` for a tool turn.
 * Every canonical value is written by exactly one row (the test checks it).
 */
import type { StopReason } from "../canonical.ts";

const API_DOC = "https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion";
const DONE_REASONS = "https://github.com/ollama/ollama/blob/main/server/routes.go";

export const OLLAMA_STOP_REASONS = [
  {
    wire: "stop",
    reads: "stop",
    // Ollama has no values for tool turns, stop sequences, filters, refusals, pauses or errors.
    writes: [
      "stop",
      "stop_sequence",
      "tool_calls",
      "content_filter",
      "refusal",
      "pause",
      "error",
      "other",
    ],
    see: API_DOC,
  },
  { wire: "length", reads: "length", writes: ["length"], see: API_DOC },
  // An empty request that only loads or unloads the model ends with these.
  { wire: "load", reads: "other", writes: [], see: DONE_REASONS },
  { wire: "unload", reads: "other", writes: [], see: DONE_REASONS },
] as const satisfies readonly {
  wire: string;
  reads: StopReason;
  writes: readonly StopReason[];
  see: string;
}[];

export function ollamaStopFromWire(wire: string, hasToolCalls: boolean): StopReason {
  const reads = OLLAMA_STOP_REASONS.find((r) => r.wire === wire)?.reads ?? "other";
  return reads === "stop" && hasToolCalls ? "tool_calls" : reads;
}

export function ollamaStopToWire(reason: StopReason): string {
  return (
    OLLAMA_STOP_REASONS.find((r) => (r.writes as readonly StopReason[]).includes(reason))?.wire ??
    "stop"
  );
}
