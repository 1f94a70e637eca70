/**
 * OpenAI Responses has no single stop field: `status` (completed, incomplete, failed,
 * cancelled) and, when incomplete, `incomplete_details.reason` (max_output_tokens,
 * content_filter). The wire value here is `status` or `status/reason`. A tool turn is not a
 * status at all: the reader infers it from function_call items in `output`.
 * One table read in both directions; every canonical value is written by exactly one row.
 */
import type { StopReason } from "../canonical.ts";

const RESPONSE_OBJECT = "https://platform.openai.com/docs/api-reference/responses/object";
const INCOMPLETE =
  "https://platform.openai.com/docs/api-reference/responses/object#responses/object-incomplete_details";

export const OPENAI_RESPONSES_STOP_REASONS = [
  {
    wire: "completed",
    reads: "stop",
    // Tool turns, stop sequences and pauses all end "completed".
    writes: ["stop", "stop_sequence", "tool_calls", "pause", "other"],
    see: RESPONSE_OBJECT,
  },
  { wire: "incomplete/max_output_tokens", reads: "length", writes: ["length"], see: INCOMPLETE },
  {
    // A safety stop. A canonical refusal stop (Anthropic `refusal`: a classifier stopped the
    // reply, Gemini SAFETY) is that same stop; "completed" would read as a natural end.
    wire: "incomplete/content_filter",
    reads: "content_filter",
    writes: ["content_filter", "refusal"],
    see: INCOMPLETE,
  },
  { wire: "incomplete", reads: "other", writes: [], see: INCOMPLETE },
  { wire: "failed", reads: "error", writes: ["error"], see: RESPONSE_OBJECT },
  { wire: "cancelled", reads: "other", writes: [], see: RESPONSE_OBJECT },
] as const satisfies readonly {
  wire: string;
  reads: StopReason;
  writes: readonly StopReason[];
  see: string;
}[];

/** The wire spelling of a status and incomplete reason: `completed`, `incomplete/max_output_tokens`. */
export function responsesStopWire(status: string, reason: string | undefined): string {
  return reason === undefined ? status : `${status}/${reason}`;
}

export function responsesStopFromWire(wire: string, hasFunctionCalls: boolean): StopReason {
  // The incomplete reason decides whatever the status says: `incomplete_details` is "details
  // on why the response is incomplete" (INCOMPLETE), so a `completed` or `failed` reply that
  // names max_output_tokens was still cut for length.
  const slash = wire.indexOf("/");
  const byReason =
    slash < 0
      ? undefined
      : OPENAI_RESPONSES_STOP_REASONS.find((r) => r.wire === `incomplete${wire.slice(slash)}`);
  const reads =
    byReason?.reads ?? OPENAI_RESPONSES_STOP_REASONS.find((r) => r.wire === wire)?.reads ?? "other";
  return reads === "stop" && hasFunctionCalls ? "tool_calls" : reads;
}

export function responsesStopToWire(reason: StopReason): { status: string; reason?: string } {
  const wire =
    OPENAI_RESPONSES_STOP_REASONS.find((r) => (r.writes as readonly StopReason[]).includes(reason))
      ?.wire ?? "completed";
  const [status, incomplete] = wire.split("/");
  return incomplete === undefined
    ? { status: status ?? wire }
    : { status: status ?? wire, reason: incomplete };
}
