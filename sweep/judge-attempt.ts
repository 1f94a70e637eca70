/**
 * Judging one attempt's stored exchange: the lens's step of a live attempt (attempt.ts) and
 * of `rescore` (rescore-judge.ts, in worker threads). Kept apart from running attempts so a
 * rescore worker loads the lens and nothing else (no HTTP client, no client SDKs).
 */
import type { CanonicalReply } from "../dialects/canonical.ts";
import type { WireExchange } from "../dialects/wire/exchange.ts";
import { CANARY_VALUES } from "../probes/corpus/canaries.ts";
import { type Exchange, exchangeOfWire } from "../probes/exchange.ts";
import { readExchange } from "../probes/lens/judge-exchange.ts";
import { judgeRead } from "../probes/lens/judge-read.ts";
import { subjectOf } from "../probes/subject.ts";
import type { Verdict } from "../probes/verdict.ts";
import { UNKNOWN_TRANSPORT_FAILURE } from "./attempt-exchange.ts";
import { withPersonaRejection } from "./persona-verdict.ts";

/** Failure fields judged from timings, which a response that never came still has. */
const CLOCK_FIELDS = new Set(["failure.deadline", "failure.retries"]);

/**
 * The lens's verdicts, and the probe's one. A response that never arrived (refused, reset
 * before headers, timed out) is `error`: the rig could not see what the gateway did.
 */
export function judgeAttempt(
  exchange: Exchange,
  field: string,
): { verdicts: Verdict[]; verdict: Verdict; clientReply?: CanonicalReply } {
  const client = exchange.route.client;
  if (client === undefined) throw new Error("an attempt's exchange has a client side");
  const subject = subjectOf(client, field);
  // A caller's deadline is judged from the clock even when no response ever arrived.
  if (!exchange.clientResponse && !CLOCK_FIELDS.has(field)) {
    const verdict: Verdict = {
      subject,
      field,
      verdict: "error",
      reason: `no response from the gateway: ${exchange.clientError ?? UNKNOWN_TRANSPORT_FAILURE}`,
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

/**
 * A stored exchange judged: what the sweep (judge-wire.ts) and `rescore` (rescore-judge.ts)
 * both do, with the canaries the corpus planted as the secrets to recognise, and the time
 * inside the lens for rescore's account of where its time goes.
 */
export function judgeStoredExchange(
  wire: WireExchange,
  field: string,
): ReturnType<typeof judgeAttempt> & { lensMs: number } {
  const started = performance.now();
  const judged = withPersonaRejection(
    judgeAttempt(exchangeOfWire(wire, CANARY_VALUES), field),
    wire.context?.strictProvider,
    wire.clientResponse?.status ?? 0,
  );
  const preflight = wire.context?.routePreflight;
  return {
    ...(preflight ? onlyOwnSubject(judged, preflight) : judged),
    lensMs: performance.now() - started,
  };
}

/**
 * On a route whose preflight failed, the probe's own verdict alone (its path, judged by its
 * own canary), saying so: nothing else is read off a route the rig may have configured wrongly.
 */
function onlyOwnSubject<T extends { verdicts: Verdict[]; verdict: Verdict }>(
  judged: T,
  preflight: string,
): T {
  const verdict = { ...judged.verdict, reason: `${judged.verdict.reason} (${preflight})` };
  const own = judged.verdicts.filter((v) => v.subject === verdict.subject);
  return { ...judged, verdict, verdicts: own.map((v) => (v === judged.verdict ? verdict : v)) };
}
