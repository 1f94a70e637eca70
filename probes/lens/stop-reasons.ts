/**
 * What a client should receive for an upstream stop reason: the upstream reason written in
 * the client dialect and read back, through the dialects' own stop-reason tables. A natural
 * stop where the client dialect could have said "truncated" or "filtered" is an erasure.
 */
import type { StopReason } from "../../dialects/canonical.ts";
import type { ClientDialect } from "../../dialects/dialect.ts";
import { dialectModule } from "../../dialects/registry.ts";
import type { Cause } from "../causes.ts";

/** The canonical reason a faithful gateway's client would read for `upstream`. */
export function expectedStopReason(
  upstream: StopReason,
  client: ClientDialect,
  hasToolCalls: boolean,
): StopReason {
  return dialectModule(client).stopRoundTrip(upstream, hasToolCalls);
}

const SAFETY: readonly StopReason[] = ["content_filter", "refusal"];
const NATURAL: readonly StopReason[] = ["stop", "stop_sequence"];

/** Why a differing stop reason matters: a lost safety or truncation signal, or plain change. */
export function stopReasonCause(
  expected: StopReason,
  got: StopReason | undefined,
): Cause | undefined {
  if (got === undefined || !NATURAL.includes(got)) return undefined;
  if (SAFETY.includes(expected)) return "erased-safety";
  if (expected === "length") return "erased-truncation";
  if (expected === "tool_calls") return "erased-tool-turn";
  return undefined;
}

/**
 * A safety stop (a filter, a refusal) read back as a natural stop. Every client dialect can
 * say "filtered": Chat `content_filter`, Responses `incomplete` with reason `content_filter`,
 * Anthropic `refusal`. So whatever a dialect's table writes for it, a safety stop that
 * reaches the client as `stop` is erased, unless the no-equivalent table names the client.
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-incomplete_details
 * @see https://docs.anthropic.com/en/api/handling-stop-reasons
 */
export function safetyErased(upstream: StopReason, got: StopReason): boolean {
  return SAFETY.includes(upstream) && NATURAL.includes(got);
}
