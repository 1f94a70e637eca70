/**
 * The fallback check: a gateway given two targets, the first failing with a status. Did it
 * move to the second on the statuses it is configured to move on (and only those), and did
 * the second target get the same request, compared field by field through the lens.
 */
import type { CanonicalRequest } from "../../dialects/canonical.ts";
import { readRequest } from "../../dialects/request.ts";
import { dialectOfPath } from "../../dialects/routes.ts";
import { ANY_NON_2XX } from "../../dialects/wire/exchange.ts";
import type { ExchangeRequest } from "../exchange.ts";
import { isSilentDefect, type Verdict } from "../verdict.ts";
import { show } from "./describe.ts";
import { describeAttempts, forwardAttempts, NON_RETRYABLE, waited } from "./failure-clock.ts";
import {
  clientOf,
  isOk,
  type Judged,
  statusTruth,
  upstreamOf,
  visibleText,
} from "./failure-judges.ts";
import type { ReadExchange } from "./judge-read.ts";
import { judgeRequest } from "./judge-request.ts";
import { normalizeText } from "./request-view.ts";

export { ANY_NON_2XX };

/**
 * Which first-target statuses the configuration makes the gateway move on: what the sender
 * put in the exchange's context, or else (hand-written exchanges, the self-check) every
 * status a retry can fix.
 */
function fallbackOn(read: ReadExchange): { moves(status: number): boolean; said: string } {
  const stated = read.exchange.context.fallback?.on;
  if (stated === ANY_NON_2XX) return { moves: (s) => !isOk(s), said: "every non-2xx" };
  const codes = stated ?? [];
  if (codes.length > 0) return { moves: (s) => codes.includes(s), said: codes.join(",") };
  return {
    moves: (s) => !isOk(s) && !(NON_RETRYABLE as readonly number[]).includes(s),
    said: "every non-2xx but 400/401/403/404/413/422 (no configuration stated)",
  };
}

function hostOf(forward: ExchangeRequest): string | undefined {
  return forward.headers.find(([n]) => n === "host")?.[1];
}

/** Which generate forwards went to the second target. */
function secondTargetForwards(
  read: ReadExchange,
  generate: ExchangeRequest[],
): Set<ExchangeRequest> {
  const named = read.exchange.context.fallback?.targets;
  const primary = named?.[0] ?? (generate[0] ? hostOf(generate[0]) : undefined);
  const secondary = named?.[1];
  const out = new Set<ExchangeRequest>();
  generate.forEach((f, i) => {
    const host = hostOf(f);
    // Declared targets: by host. Without them (hand-written exchanges, the self-check) every
    // forward after the first is the next target, as seen from one backend.
    const second = secondary !== undefined ? host === secondary : named ? host !== primary : i > 0;
    if (second) out.add(f);
  });
  return out;
}

function isGenerate(f: ExchangeRequest): boolean {
  const kind = dialectOfPath(f.path.split("?")[0] ?? f.path)?.kind;
  return kind === undefined || kind === "generate";
}

/** The client request judged through the lens against one forwarded request. */
function requestVerdicts(
  read: ReadExchange,
  forward: ExchangeRequest,
): Map<string, Verdict> | string {
  if (typeof forward.body !== "object" || forward.body === null) return "body is not JSON";
  const dialect = dialectOfPath(forward.path)?.dialect ?? read.exchange.route.backend;
  let forwarded: CanonicalRequest;
  try {
    forwarded = readRequest(dialect, forward.body, { path: forward.path });
  } catch (error) {
    return (error as Error).message;
  }
  const verdicts = judgeRequest({
    clientDialect: read.exchange.route.client,
    backend: dialect,
    client: read.client,
    forwarded,
    clientBody: read.exchange.clientRequest.body,
    forwardedBody: forward.body,
  });
  const out = new Map<string, Verdict>();
  for (const v of verdicts) if (!out.has(v.field) || isSilentDefect(v.verdict)) out.set(v.field, v);
  return out;
}

/**
 * The hop through the lens: every field the first target got intact must reach the second
 * intact too. A field lost on the hop is judged like any other loss (dropped, mangled, ...).
 */
function judgeHop(
  read: ReadExchange,
  first: ExchangeRequest,
  second: ExchangeRequest,
): Judged | undefined {
  const before = requestVerdicts(read, first);
  const after = requestVerdicts(read, second);
  if (typeof after === "string")
    return {
      verdict: "mangled",
      reason: `the second target got an unreadable body (${after})`,
      cause: "fallback-hop-lost",
    };
  if (typeof before === "string") return undefined;
  const lost = [...after.values()].filter(
    (v) =>
      v.field !== "model" &&
      isSilentDefect(v.verdict) &&
      !isSilentDefect(before.get(v.field)?.verdict ?? "dropped"),
  );
  const [worstLoss] = lost;
  if (!worstLoss) return undefined;
  return {
    verdict: worstLoss.verdict,
    reason: `lost on the hop to the second target: ${lost.map((v) => `${v.reason} (${v.verdict})`).join("; ")}`,
    cause: "fallback-hop-lost",
  };
}

/**
 * Invariant: with two targets configured, when the first fails with a status the gateway is
 * configured to move on, the gateway MUST try the second (else `no-fallback`), the second
 * MUST get the same request as the first (judged by the lens, field by field), and the
 * client MUST get the second's answer intact. On a status the configuration does not name,
 * it MUST NOT move, and the client MUST get the first's error truthfully.
 */
export function judgeFallback(read: ReadExchange): Judged {
  const generate = read.exchange.forwarded.filter(isGenerate);
  const attempts = forwardAttempts(read);
  const down = read.exchange.clientResponse;
  const seen = describeAttempts(attempts);
  const firstForward = generate[0];
  if (!firstForward) {
    if (!down)
      return { verdict: "error", reason: `${seen}: nothing forwarded, no client response` };
    return isOk(down.status)
      ? {
          verdict: "dropped",
          reason: `nothing forwarded; client got ${down.status}`,
          cause: "not-forwarded",
        }
      : { verdict: "rejected", reason: `not forwarded; client got ${down.status}` };
  }
  // Without arrival records only the last answer is known: a forward followed by another
  // is one the gateway did not accept, whatever its status was.
  const status = attempts[0]?.status;
  if (status !== undefined && isOk(status))
    return { verdict: "error", reason: `${seen}: the first target did not fail` };
  if (status === undefined && attempts.length < 2)
    return { verdict: "error", reason: `${seen}: the first target's answer is unknown` };
  const first = status === undefined ? "an unrecorded failure" : String(status);
  const { moves, said } = fallbackOn(read);
  const should = status === undefined || moves(status);
  const seconds = secondTargetForwards(read, generate);
  const secondIndex = generate.findIndex((f) => seconds.has(f));
  const configured = `fallback on ${said}`;
  if (!down)
    return { verdict: "error", reason: `${seen}; ${configured}; no client response recorded` };
  const told = `${seen}; ${configured}; client got ${down.status}${waited(read)}`;
  if (secondIndex < 0) {
    if (isOk(down.status))
      return {
        verdict: "mangled",
        reason: `stayed on the first target: ${told}`,
        cause: "status-relabelled",
      };
    if (should)
      return {
        verdict: "dropped",
        reason: `no fallback on ${first}: ${told}`,
        cause: "no-fallback",
      };
    const truth = statusTruth(status ?? 500, down.status);
    return {
      ...truth,
      reason: `stayed on the first target (${first} is not a fallback status): ${told} (${truth.reason})`,
    };
  }
  if (!should)
    return {
      verdict: "mangled",
      reason: `fell back on ${first}, which the configuration does not name: ${told}`,
      cause: "unconfigured-fallback",
    };
  const second = generate[secondIndex] as ExchangeRequest;
  const hop = judgeHop(read, firstForward, second);
  if (hop) return { ...hop, reason: `fell back on ${first}; ${hop.reason}; ${told}` };
  const final = attempts.at(-1)?.status;
  if (final === undefined)
    return {
      verdict: "error",
      reason: `fell back on ${first}: ${told}; the second's status unknown`,
    };
  if (!isOk(final)) {
    const truth = statusTruth(final, down.status);
    return {
      ...truth,
      reason: `fell back on ${first}, the second failed too: ${told} (${truth.reason})`,
    };
  }
  if (!isOk(down.status))
    return {
      verdict: "mangled",
      reason: `fell back on ${first}, the second answered ${final}: ${told}`,
      cause: "success-lost",
    };
  const sent = normalizeText(visibleText(upstreamOf(read)));
  const got = normalizeText(visibleText(clientOf(read)));
  if (sent !== "" && !got.includes(sent))
    return {
      verdict: "dropped",
      reason: `fell back on ${first}: ${told}: ${show(sent)} → ${show(got)}`,
      cause: "answer-lost",
    };
  return {
    verdict: "preserved",
    reason: `fell back on ${first}, same request, the second's answer intact: ${told}`,
  };
}
