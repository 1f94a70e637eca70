/**
 * Anthropic Messages `stop_reason` ↔ canonical stop reason, one table read in both
 * directions: `reads` is what the wire value means, `writes` the canonical values written as
 * it. Every canonical value is written by exactly one row (the test checks it).
 */
import type { StopReason } from "../canonical.ts";

const STOP_REASONS_DOC = "https://docs.anthropic.com/en/api/handling-stop-reasons";
const MESSAGES_DOC = "https://docs.anthropic.com/en/api/messages#response-stop-reason";

export const ANTHROPIC_STOP_REASONS = [
  // Anthropic has no "other" or "error" stop value: both are written as a natural end.
  { wire: "end_turn", reads: "stop", writes: ["stop", "other", "error"], see: MESSAGES_DOC },
  { wire: "max_tokens", reads: "length", writes: ["length"], see: MESSAGES_DOC },
  { wire: "stop_sequence", reads: "stop_sequence", writes: ["stop_sequence"], see: MESSAGES_DOC },
  { wire: "tool_use", reads: "tool_calls", writes: ["tool_calls"], see: MESSAGES_DOC },
  { wire: "pause_turn", reads: "pause", writes: ["pause"], see: STOP_REASONS_DOC },
  // Streaming classifiers stopping the reply: the nearest to a content filter Anthropic has.
  {
    wire: "refusal",
    reads: "refusal",
    writes: ["refusal", "content_filter"],
    see: STOP_REASONS_DOC,
  },
  {
    // The context window filled before max_tokens: a truncation, read as length.
    wire: "model_context_window_exceeded",
    reads: "length",
    writes: [],
    see: STOP_REASONS_DOC,
  },
] as const satisfies readonly {
  wire: string;
  reads: StopReason;
  writes: readonly StopReason[];
  see: string;
}[];

export function anthropicStopFromWire(wire: string): StopReason {
  return ANTHROPIC_STOP_REASONS.find((r) => r.wire === wire)?.reads ?? "other";
}

export function anthropicStopToWire(reason: StopReason): string {
  return (
    ANTHROPIC_STOP_REASONS.find((r) => (r.writes as readonly StopReason[]).includes(reason))
      ?.wire ?? "end_turn"
  );
}
