/**
 * Failure checks that need more than one exchange's bodies: how many forwarded requests
 * reached the backend, with what answers and spacing, and how long the client waited
 * (`Exchange.timing`, filled by the sweep from the mock's arrival times and its own clock).
 */

import type { CanonicalRequest } from "../../dialects/canonical.ts";
import { readRequest } from "../../dialects/request.ts";
import { dialectOfPath } from "../../dialects/routes.ts";
import type { WireRequest } from "../exchange.ts";
import { isSilentDefect, type Verdict } from "../verdict.ts";
import { show } from "./describe.ts";
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

/**
 * Statuses a retry cannot fix: the same request gets the same answer.
 * @see https://github.com/openai/openai-node#retries (retries 408, 409, 429, >=500 only)
 * @see https://docs.anthropic.com/en/api/errors (400/401/403/404/413 are the caller's to fix)
 */
export const NON_RETRYABLE = [400, 401, 403, 404, 413, 422] as const;

/** More attempts than any documented default (OpenAI SDK 3, Portkey retry max 5, x2). */
export const MAX_REASONABLE_ATTEMPTS = 10;

/** Slack for `Retry-After`: arrival times are ms-rounded and the reply leaves after arrival. */
const RETRY_AFTER_SLACK_MS = 100;

/** The client request header a probe states its caller's deadline in. */
export const DEADLINE_HEADER = "x-gatecheck-deadline-ms";

export interface ForwardAttempt {
  atMs?: number;
  status?: number;
  retryAfter?: string;
}

/** The forwarded generate requests in arrival order, with what the backend answered each. */
export function forwardAttempts(read: ReadExchange): ForwardAttempt[] {
  const { exchange } = read;
  const out: ForwardAttempt[] = [];
  exchange.forwarded.forEach((f, i) => {
    const kind = dialectOfPath(f.path.split("?")[0] ?? f.path)?.kind;
    if (kind !== undefined && kind !== "generate") return;
    const t = exchange.timing?.forwarded[i];
    out.push({
      ...(t?.atMs === undefined ? {} : { atMs: t.atMs }),
      ...(t?.status === undefined ? {} : { status: t.status }),
      ...(t?.retryAfter === undefined ? {} : { retryAfter: t.retryAfter }),
    });
  });
  const last = out.at(-1);
  const finalStatus = exchange.upstreamReply?.status;
  if (last && last.status === undefined && finalStatus !== undefined) last.status = finalStatus;
  return out;
}

function describeAttempts(attempts: ForwardAttempt[]): string {
  const first = attempts[0]?.atMs ?? 0;
  const each = attempts.map((a) => {
    const at = a.atMs === undefined ? "" : ` @+${Math.round(a.atMs - first)}ms`;
    return `${a.status ?? "?"}${at}`;
  });
  return `${attempts.length} attempt(s) [${each.join(", ")}]`;
}

/** `Retry-After: N` (seconds) against the measured gap to the next attempt. */
function retryAfterNotes(attempts: ForwardAttempt[]): string[] {
  const notes: string[] = [];
  attempts.forEach((a, i) => {
    const next = attempts[i + 1];
    if (a.retryAfter === undefined || !next) return;
    const seconds = Number(a.retryAfter);
    if (!Number.isFinite(seconds) || a.atMs === undefined || next.atMs === undefined) {
      notes.push(`Retry-After ${a.retryAfter}: spacing not measured`);
      return;
    }
    const gap = Math.round(next.atMs - a.atMs);
    const honoured = gap + RETRY_AFTER_SLACK_MS >= seconds * 1000;
    notes.push(
      `Retry-After ${seconds}s ${honoured ? "honoured" : "not honoured"} (next attempt after ${gap} ms)`,
    );
  });
  return notes;
}

function waited(read: ReadExchange): string {
  const total = read.exchange.timing?.clientTotalMs;
  return total === undefined ? "" : `; client waited ${Math.round(total)} ms`;
}

/**
 * Invariant: a retrying gateway MUST NOT retry what cannot succeed (a 400), MUST stop, and
 * the client MUST end with either the final success intact or the upstream's error status.
 */
export function judgeRetries(read: ReadExchange): Judged {
  const attempts = forwardAttempts(read);
  const down = read.exchange.clientResponse;
  const seen = [describeAttempts(attempts), ...retryAfterNotes(attempts)].join("; ");
  const why = `${seen}${waited(read)}`;
  if (attempts.length === 0) {
    if (!down) return { verdict: "error", reason: "nothing forwarded and no client response" };
    return isOk(down.status)
      ? {
          verdict: "dropped",
          reason: `nothing forwarded; client got ${down.status}`,
          cause: "not-forwarded",
        }
      : { verdict: "rejected", reason: `not forwarded; client got ${down.status}` };
  }
  const retriedBad = attempts
    .slice(0, -1)
    .find((a) => a.status !== undefined && (NON_RETRYABLE as readonly number[]).includes(a.status));
  if (retriedBad)
    return {
      verdict: "mangled",
      reason: `${retriedBad.status} retried: ${why}`,
      cause: "retried-non-retryable",
    };
  if (attempts.length > MAX_REASONABLE_ATTEMPTS)
    return {
      verdict: "mangled",
      reason: `more than ${MAX_REASONABLE_ATTEMPTS} attempts: ${why}`,
      cause: "retry-storm",
    };
  const final = attempts.at(-1)?.status;
  if (!down) return { verdict: "error", reason: `${why}; no client response recorded` };
  if (final === undefined)
    return { verdict: "error", reason: `${why}; final upstream status unknown` };
  const told = `${why}; client got ${down.status}`;
  if (isOk(final) && isOk(down.status)) {
    const sent = normalizeText(visibleText(upstreamOf(read)));
    const got = normalizeText(visibleText(clientOf(read)));
    if (sent !== "" && !got.includes(sent))
      return {
        verdict: "dropped",
        reason: `${told}: ${show(sent)} → ${show(got)}`,
        cause: "answer-lost",
      };
    return { verdict: "preserved", reason: `${told} with the final answer` };
  }
  if (isOk(final))
    return {
      verdict: "mangled",
      reason: `${told}: the last upstream answer was ${final}`,
      cause: "success-lost",
    };
  const truth = statusTruth(final, down.status);
  return { ...truth, reason: `${told} (${truth.reason})` };
}

/**
 * Invariant: the caller's wait MUST stay within its deadline (the probe states it in
 * `x-gatecheck-deadline-ms`), and what it is told then follows status truth.
 */
export function judgeDeadline(read: ReadExchange): Judged {
  const { exchange } = read;
  const stated = exchange.clientRequest.headers.find(([n]) => n === DEADLINE_HEADER)?.[1];
  const deadline = Number(stated);
  if (stated === undefined || !Number.isFinite(deadline) || deadline <= 0)
    return { verdict: "error", reason: `no ${DEADLINE_HEADER} header in the client request` };
  const attempts = forwardAttempts(read);
  const seen = describeAttempts(attempts);
  const down = exchange.clientResponse;
  const up = exchange.upstreamReply;
  const total = exchange.timing?.clientTotalMs;
  if (exchange.timing && total === undefined)
    return { verdict: "error", reason: `${seen}; the client's wait was not recorded` };
  if (total !== undefined && total > deadline) {
    const answer = down ? `then got ${down.status}` : "and got no answer";
    return {
      verdict: "mangled",
      reason: `waited ${Math.round(total)} ms > deadline ${deadline} ms ${answer}; ${seen}`,
      cause: "deadline-exceeded",
    };
  }
  if (!down) return { verdict: "error", reason: `${seen}; no client response recorded` };
  const wait =
    total === undefined
      ? "wait not measured (no timing)"
      : `waited ${Math.round(total)} ms ≤ ${deadline} ms`;
  if (!up)
    return { verdict: "rejected", reason: `${wait}; nothing forwarded; client got ${down.status}` };
  const outcome = judgeRetries(read);
  return { ...outcome, reason: `${wait}; ${outcome.reason}` };
}

/** The client request header where the sweep names the two targets: `<host:port> <host:port>`. */
export const FALLBACK_TARGETS_HEADER = "x-gatecheck-fallback-targets";
/** The client request header naming the statuses the gateway is configured to move on. */
export const FALLBACK_ON_HEADER = "x-gatecheck-fallback-on";
/** `FALLBACK_ON_HEADER`'s value for a gateway that moves on every non-2xx (Portkey's default). */
export const ANY_NON_2XX = "any-non-2xx";

function clientHeader(read: ReadExchange, name: string): string | undefined {
  return read.exchange.clientRequest.headers.find(([n]) => n === name)?.[1];
}

/**
 * Which first-target statuses the configuration makes the gateway move on: the header the
 * sweep writes, or else (hand-written exchanges, the self-check) every status a retry can fix.
 */
function fallbackOn(read: ReadExchange): { moves(status: number): boolean; said: string } {
  const stated = clientHeader(read, FALLBACK_ON_HEADER)?.trim();
  if (stated === ANY_NON_2XX) return { moves: (s) => !isOk(s), said: "every non-2xx" };
  const codes =
    stated
      ?.split(/[\s,]+/)
      .map(Number)
      .filter(Number.isInteger) ?? [];
  if (codes.length > 0) return { moves: (s) => codes.includes(s), said: codes.join(",") };
  return {
    moves: (s) => !isOk(s) && !(NON_RETRYABLE as readonly number[]).includes(s),
    said: "every non-2xx but 400/401/403/404/413/422 (no configuration stated)",
  };
}

function hostOf(forward: WireRequest): string | undefined {
  return forward.headers.find(([n]) => n === "host")?.[1];
}

/** Which generate forwards went to the second target. */
function secondTargetForwards(read: ReadExchange, generate: WireRequest[]): Set<WireRequest> {
  const named = clientHeader(read, FALLBACK_TARGETS_HEADER)?.trim().split(/\s+/);
  const primary = named?.[0] ?? (generate[0] ? hostOf(generate[0]) : undefined);
  const secondary = named?.[1];
  const out = new Set<WireRequest>();
  generate.forEach((f, i) => {
    const host = hostOf(f);
    // Declared targets: by host. Without them (hand-written exchanges, the self-check) every
    // forward after the first is the next target, as seen from one backend.
    const second = secondary !== undefined ? host === secondary : named ? host !== primary : i > 0;
    if (second) out.add(f);
  });
  return out;
}

function isGenerate(f: WireRequest): boolean {
  const kind = dialectOfPath(f.path.split("?")[0] ?? f.path)?.kind;
  return kind === undefined || kind === "generate";
}

/** The client request judged through the lens against one forwarded request. */
function requestVerdicts(read: ReadExchange, forward: WireRequest): Map<string, Verdict> | string {
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
  });
  const out = new Map<string, Verdict>();
  for (const v of verdicts) if (!out.has(v.field) || isSilentDefect(v.verdict)) out.set(v.field, v);
  return out;
}

/**
 * The hop through the lens: every field the first target got intact must reach the second
 * intact too. A field lost on the hop is judged like any other loss (dropped, mangled, ...).
 */
function judgeHop(read: ReadExchange, first: WireRequest, second: WireRequest): Judged | undefined {
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
  const second = generate[secondIndex] as WireRequest;
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
