/**
 * Failure checks that need more than one exchange's bodies: how many forwarded requests
 * reached the backend, with what answers and spacing, and how long the client waited
 * (`Exchange.timing`, filled by the sweep from the mock's arrival times and its own clock).
 */

import { dialectOfPath } from "../../dialects/routes.ts";
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

export function describeAttempts(attempts: ForwardAttempt[]): string {
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

export function waited(read: ReadExchange): string {
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
 * Invariant: the caller's wait MUST stay within its deadline (the probe states it in the
 * exchange's `context.deadlineMs`), and what it is told then follows status truth.
 */
export function judgeDeadline(read: ReadExchange): Judged {
  const { exchange } = read;
  const deadline = exchange.context.deadlineMs;
  if (deadline === undefined)
    return {
      verdict: "error",
      reason: "no caller's deadline in the exchange's context.deadlineMs",
    };
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
