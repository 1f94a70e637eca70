/**
 * Whose fault a fault is. A one-sided invariant (reply-invariants.ts), a stream's framing
 * (reply-status.ts) and an untyped error (the type for the status) judge what the client got;
 * when the upstream's reply was recorded and its own bytes already show the same fault, and
 * the client got it unchanged, the gateway relayed what the upstream sent: `preserved`, cause
 * `as-upstream`, the upstream's fault in the reason. Only a fault the gateway introduced or
 * made worse (a fault the upstream did not show, one more of them, another kind) stays a
 * finding. docs/lens.md "A fault the upstream sent is not the gateway's" has the reasons.
 */
import type { CanonicalReply } from "../../dialects/canonical.ts";
import type { Dialect } from "../../dialects/dialect.ts";

/** The upstream's reply as the lens read it, where it was recorded. */
export interface UpstreamSide {
  reply: CanonicalReply;
  dialect: Dialect;
  status: number;
}

/**
 * A stream fault's key without its place in the stream (`event 12: x` → `x`): a gateway that
 * passes a stream on may add or merge events before the fault (a keep-alive, a chunk), which
 * moves it without changing it.
 */
export function faultKey(why: string): string {
  return why.replace(/^(event|line) \d+: /, "");
}

/** Whether each fault the client shows is one the upstream showed, counted as a multiset. */
export function faultsWithin(client: readonly string[], upstream: readonly string[]): boolean {
  const left = new Map<string, number>();
  for (const f of upstream) left.set(f, (left.get(f) ?? 0) + 1);
  for (const f of client) {
    const n = left.get(f) ?? 0;
    if (n === 0) return false;
    left.set(f, n - 1);
  }
  return true;
}

/** The reason of a relayed fault: what the upstream sent, and that the client got it as sent. */
export function relayedDetail(upstreamDetail: string): string {
  return `upstream: ${upstreamDetail} → relayed as the upstream sent it`;
}
