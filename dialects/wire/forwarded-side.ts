/**
 * The backend side of an exchange from what a recording backend (the mock, or a capture)
 * kept for each request it got: the requests in order, the reply the client's answer
 * follows, and the arrival offsets and answers the failure judges read. The sweep, `check`
 * of a mock record file and the reading of databases written before schema version 7 all
 * build it here, so they agree.
 */
import { tryParseJson } from "../json.ts";
import type { Bytes } from "./bytes.ts";
import type { ExchangeContext, ExchangeTiming } from "./exchange.ts";
import { type HeaderPairs, headerValue } from "./headers.ts";
import type { WireReply, WireRequest } from "./messages.ts";

/** One request the backend got, as recorded (a mock record has these and more). */
export interface RecordedForward {
  /** ISO arrival time (retry spacing for the failure judges). */
  receivedAt?: string;
  request: WireRequest;
  /**
   * What the backend answered; `body` absent when the recorder kept no bytes. A persona of the
   * mock (a strict provider) names itself and the rule that rejected the request.
   */
  reply?: {
    status: number;
    headers: HeaderPairs;
    body?: Bytes;
    persona?: string;
    personaRule?: string;
  };
}

export interface ForwardedSide {
  forwarded: WireRequest[];
  upstreamReply?: WireReply;
  /** One entry per request, or undefined when a request's arrival time is unknown. */
  arrivals?: ExchangeTiming["forwarded"];
  /** The first request a strict provider rejected (exchange context `strictProvider`). */
  rejection?: NonNullable<ExchangeContext["strictProvider"]>;
}

function isJsonBody(body: Bytes): boolean {
  return body.encoding === "utf8" && tryParseJson(body.data).ok;
}

/**
 * The request the client's answer follows: after retries, the last one the gateway sent a
 * JSON body in (a retry of a readable request), else the last.
 */
function answered(records: readonly RecordedForward[]): RecordedForward | undefined {
  if (records.length <= 1) return records[0];
  return records.findLast((r) => isJsonBody(r.request.body)) ?? records.at(-1);
}

function arrivalsOf(records: readonly RecordedForward[]): ExchangeTiming["forwarded"] | undefined {
  const times: number[] = [];
  let first = Number.POSITIVE_INFINITY;
  for (const r of records) {
    const time = r.receivedAt ? Date.parse(r.receivedAt) : Number.NaN;
    if (Number.isNaN(time)) return undefined;
    times.push(time);
    if (time < first) first = time;
  }
  return records.map((r, i) => {
    const entry: ExchangeTiming["forwarded"][number] = { atMs: (times[i] as number) - first };
    if (r.reply) entry.status = r.reply.status;
    const retryAfter = r.reply ? headerValue(r.reply.headers, "retry-after") : undefined;
    if (retryAfter !== undefined) entry.retryAfter = retryAfter;
    return entry;
  });
}

/** The message of a provider's JSON error body (an object, or Google's array of them). */
function errorMessage(body: Bytes | undefined): string {
  const text = body?.encoding === "utf8" ? body.data : "";
  const parsed = tryParseJson(text);
  if (parsed.ok) {
    const first = Array.isArray(parsed.value) ? parsed.value[0] : parsed.value;
    const message = (first as { error?: { message?: unknown } } | null)?.error?.message;
    if (typeof message === "string") return message;
  }
  return text;
}

function rejectionOf(records: readonly RecordedForward[]): ForwardedSide["rejection"] {
  for (const { reply } of records) {
    if (!reply?.persona || !reply.personaRule) continue;
    return { persona: reply.persona, rule: reply.personaRule, message: errorMessage(reply.body) };
  }
  return undefined;
}

export function forwardedSide(records: readonly RecordedForward[]): ForwardedSide {
  const out: ForwardedSide = { forwarded: records.map((r) => r.request) };
  const rejection = rejectionOf(records);
  if (rejection) out.rejection = rejection;
  const reply = answered(records)?.reply;
  if (reply?.body)
    out.upstreamReply = { status: reply.status, headers: reply.headers, body: reply.body };
  const arrivals = arrivalsOf(records);
  if (arrivals) out.arrivals = arrivals;
  return out;
}

/** The exchange's timing from the arrivals and the client's total wait, as the judges read it. */
export function exchangeTiming(
  arrivals: ExchangeTiming["forwarded"] | undefined,
  clientTotalMs: number | undefined,
): ExchangeTiming | undefined {
  if (arrivals === undefined)
    return clientTotalMs === undefined ? undefined : { forwarded: [], clientTotalMs };
  return clientTotalMs === undefined
    ? { forwarded: arrivals }
    : { forwarded: arrivals, clientTotalMs };
}
