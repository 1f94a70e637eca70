/**
 * Judging one attempt's stored bytes: the lens's step of a live attempt (attempt.ts) and of
 * `rescore` (rescore-judge.ts, in worker threads). Kept apart from running attempts so a
 * rescore worker loads the lens and nothing else (no HTTP client, no client SDKs).
 */
import type { CanonicalReply } from "../dialects/canonical.ts";
import { CANARY_VALUES } from "../probes/corpus/canaries.ts";
import { readExchange } from "../probes/lens/judge-exchange.ts";
import { judgeRead } from "../probes/lens/judge-read.ts";
import { subjectOf } from "../probes/subject.ts";
import type { Verdict } from "../probes/verdict.ts";
import { exchangeFromWire, type StoredResponse, type WireSides } from "./exchange-from-wire.ts";
import { withPersonaRejection } from "./persona-verdict.ts";

/** Failure fields judged from timings, which a response that never came still has. */
const CLOCK_FIELDS = new Set(["failure.deadline", "failure.retries"]);

/**
 * The lens's verdicts, and the probe's one. A response that never arrived (refused, reset
 * before headers, timed out) is `error`: the rig could not see what the gateway did.
 */
export function judgeAttempt(
  exchange: ReturnType<typeof exchangeFromWire>,
  field: string,
  response: StoredResponse,
): { verdicts: Verdict[]; verdict: Verdict; clientReply?: CanonicalReply } {
  const subject = subjectOf(exchange.route.client, field);
  // A caller's deadline is judged from the clock even when no response ever arrived.
  if (response.status === 0 && !CLOCK_FIELDS.has(field)) {
    const verdict: Verdict = {
      subject,
      field,
      verdict: "error",
      reason: `no response from the gateway: ${response.transportError ?? "unknown transport failure"}`,
      cause: "transport",
    };
    return { verdicts: [verdict], verdict };
  }
  try {
    const read = readExchange(exchange);
    const clientReply = read.clientReply?.ok ? read.clientReply.value : undefined;
    // Every verdict, and the probe's own, from one pass.
    const { verdicts, verdict } = judgeRead(read, { subject, field });
    return { verdicts, verdict: verdict as Verdict, ...(clientReply ? { clientReply } : {}) };
  } catch (error) {
    const verdict: Verdict = {
      subject,
      field,
      verdict: "error",
      reason: `the lens could not judge this exchange: ${(error as Error).message}`,
      cause: "lens",
    };
    return { verdicts: [verdict], verdict };
  }
}

/** An attempt's sides as stored (redacted), the client's response among them. */
export type StoredSides = Omit<WireSides, "secrets" | "clientResponse"> & {
  clientResponse: StoredResponse;
};

/**
 * The stored sides rebuilt into the exchange the live sweep judged, and judged: what the
 * sweep (judge-wire.ts) and `rescore` (rescore-judge.ts) both do, with the time inside the
 * lens for rescore's account of where its time goes.
 */
export function judgeStoredSides(
  sides: StoredSides,
  field: string,
): ReturnType<typeof judgeAttempt> & { lensMs: number } {
  const exchange = exchangeFromWire({ ...sides, secrets: CANARY_VALUES });
  const started = performance.now();
  const judged = withPersonaRejection(
    judgeAttempt(exchange, field, sides.clientResponse),
    sides.forwarded,
    sides.clientResponse.status,
  );
  return { ...judged, lensMs: performance.now() - started };
}
