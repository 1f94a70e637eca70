/**
 * Gemini `finishReason` ↔ canonical stop reason, one table read in both directions.
 * Gemini says STOP for a turn that ends in function calls: the reader infers `tool_calls`
 * from functionCall parts in the content, and the writer writes STOP for a tool turn.
 * Every canonical value is written by exactly one row (the test checks it).
 */
import type { StopReason } from "../canonical.ts";

const FINISH_REASON = "https://ai.google.dev/api/generate-content#FinishReason";

export const GEMINI_STOP_REASONS = [
  // Gemini has no separate values for a stop sequence, a tool turn or a pause.
  {
    wire: "STOP",
    reads: "stop",
    writes: ["stop", "stop_sequence", "tool_calls", "pause"],
    see: FINISH_REASON,
  },
  { wire: "MAX_TOKENS", reads: "length", writes: ["length"], see: FINISH_REASON },
  {
    wire: "SAFETY",
    reads: "content_filter",
    writes: ["content_filter", "refusal"],
    see: FINISH_REASON,
  },
  { wire: "RECITATION", reads: "content_filter", writes: [], see: FINISH_REASON },
  { wire: "LANGUAGE", reads: "other", writes: [], see: FINISH_REASON },
  { wire: "OTHER", reads: "other", writes: ["other"], see: FINISH_REASON },
  { wire: "BLOCKLIST", reads: "content_filter", writes: [], see: FINISH_REASON },
  { wire: "PROHIBITED_CONTENT", reads: "content_filter", writes: [], see: FINISH_REASON },
  { wire: "SPII", reads: "content_filter", writes: [], see: FINISH_REASON },
  { wire: "MALFORMED_FUNCTION_CALL", reads: "error", writes: ["error"], see: FINISH_REASON },
  { wire: "IMAGE_SAFETY", reads: "content_filter", writes: [], see: FINISH_REASON },
  { wire: "IMAGE_PROHIBITED_CONTENT", reads: "content_filter", writes: [], see: FINISH_REASON },
  { wire: "IMAGE_RECITATION", reads: "content_filter", writes: [], see: FINISH_REASON },
  { wire: "IMAGE_OTHER", reads: "other", writes: [], see: FINISH_REASON },
  { wire: "NO_IMAGE", reads: "other", writes: [], see: FINISH_REASON },
  { wire: "UNEXPECTED_TOOL_CALL", reads: "error", writes: [], see: FINISH_REASON },
  { wire: "TOO_MANY_TOOL_CALLS", reads: "error", writes: [], see: FINISH_REASON },
  { wire: "MISSING_THOUGHT_SIGNATURE", reads: "error", writes: [], see: FINISH_REASON },
  { wire: "MALFORMED_RESPONSE", reads: "error", writes: [], see: FINISH_REASON },
  { wire: "FINISH_REASON_UNSPECIFIED", reads: "other", writes: [], see: FINISH_REASON },
] as const satisfies readonly {
  wire: string;
  reads: StopReason;
  writes: readonly StopReason[];
  see: string;
}[];

export function geminiStopFromWire(wire: string, hasFunctionCalls: boolean): StopReason {
  const reads = GEMINI_STOP_REASONS.find((r) => r.wire === wire)?.reads ?? "other";
  return reads === "stop" && hasFunctionCalls ? "tool_calls" : reads;
}

export function geminiStopToWire(reason: StopReason): string {
  return (
    GEMINI_STOP_REASONS.find((r) => (r.writes as readonly StopReason[]).includes(reason))?.wire ??
    "STOP"
  );
}
