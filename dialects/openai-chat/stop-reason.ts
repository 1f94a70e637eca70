/**
 * OpenAI Chat Completions `finish_reason` ↔ canonical stop reason, one table read in both
 * directions: `reads` is what the wire value means, `writes` the canonical values written as
 * it. Every canonical value is written by exactly one row (the test checks it).
 */
import type { StopReason } from "../canonical.ts";

const CHAT_OBJECT =
  "https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices";

export const OPENAI_CHAT_STOP_REASONS = [
  {
    wire: "stop",
    reads: "stop",
    // Chat has one value for a natural stop and a matched stop sequence; it has no pause or
    // error value.
    writes: ["stop", "stop_sequence", "pause", "error", "other"],
    see: CHAT_OBJECT,
  },
  { wire: "length", reads: "length", writes: ["length"], see: CHAT_OBJECT },
  { wire: "tool_calls", reads: "tool_calls", writes: ["tool_calls"], see: CHAT_OBJECT },
  {
    // A safety stop: "content was omitted due to a flag from our content filters". A canonical
    // refusal stop (Anthropic `refusal`: a classifier stopped the reply, Gemini SAFETY) is that
    // same safety stop; written as "stop" the client could not tell it from a natural end.
    wire: "content_filter",
    reads: "content_filter",
    writes: ["content_filter", "refusal"],
    see: CHAT_OBJECT,
  },
  {
    // Deprecated single-function calling; still sent by some OpenAI-compatible servers.
    wire: "function_call",
    reads: "tool_calls",
    writes: [],
    see: CHAT_OBJECT,
  },
] as const satisfies readonly {
  wire: string;
  reads: StopReason;
  writes: readonly StopReason[];
  see: string;
}[];

export function chatStopFromWire(wire: string): StopReason {
  return OPENAI_CHAT_STOP_REASONS.find((r) => r.wire === wire)?.reads ?? "other";
}

export function chatStopToWire(reason: StopReason): string {
  return (
    OPENAI_CHAT_STOP_REASONS.find((r) => (r.writes as readonly StopReason[]).includes(reason))
      ?.wire ?? "stop"
  );
}
