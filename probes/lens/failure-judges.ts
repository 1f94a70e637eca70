/**
 * The failure axis: what a gateway tells its caller when the upstream fails. One checker per
 * invariant, each over the exchange's bytes (and, for retries and waits, its timing):
 * - status: an upstream non-2xx MUST reach the client as a non-2xx (`status-relabelled`);
 * - error text: the upstream's message MUST reach the client's error (`error-text-lost`);
 * - gzip: an error body MUST reach the client readable, not still gzip (`undecoded-gzip`);
 * - stream end: after an upstream error or cut, the client MUST NOT see a clean end;
 * - retries, deadline, fallback: see failure-clock.ts.
 */
import type { CanonicalReply } from "../../dialects/canonical.ts";
import type { Cause } from "../causes.ts";
import type { ExchangeReply } from "../exchange.ts";
import type { Verdict } from "../verdict.ts";
import { show, verdict } from "./describe.ts";
import { judgeDeadline, judgeRetries } from "./failure-clock.ts";
import { judgeFallback } from "./failure-fallback.ts";
import type { FailureField } from "./field-names.ts";
import type { ReadExchange } from "./judge-read.ts";
import { normalizeText } from "./request-view.ts";

export function isOk(status: number): boolean {
  return status >= 200 && status < 300;
}

export function upstreamOf(read: ReadExchange): CanonicalReply | undefined {
  return read.upstream?.ok ? read.upstream.value : undefined;
}

export function clientOf(read: ReadExchange): CanonicalReply | undefined {
  return read.clientReply?.ok ? read.clientReply.value : undefined;
}

export function visibleText(reply: CanonicalReply | undefined): string {
  if (!reply) return "";
  return reply.parts
    .map((p) => (p.type === "text" ? p.text : ""))
    .join("")
    .trim();
}

function errorMessage(reply: CanonicalReply | undefined): string | undefined {
  return reply?.error?.message ?? reply?.stream?.error?.message;
}

/** Bytes that are still gzip after the client's decoding: 1f 8b read as text. */
export function looksGzip(body: string): boolean {
  return body.charCodeAt(0) === 0x1f && (body.charCodeAt(1) === 0x8b || body[1] === "\uFFFD");
}

/** What a message looks like when an error object was turned into a string by mistake. */
const STRINGIFIED = /^(undefined|null|\[object Object\])$|\[object Object\]|: undefined$/;

/** 4xx and 5xx: the class a client's retry and auth logic branches on. */
function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

export type Judged = Pick<Verdict, "verdict" | "reason" | "cause">;

const judged = (kind: Verdict["verdict"], reason: string, cause?: Cause): Judged =>
  cause === undefined ? { verdict: kind, reason } : { verdict: kind, reason, cause };

/**
 * Invariant: an upstream non-2xx MUST reach the client as a non-2xx of the same class.
 * A different code in the same class (529 → 503 for a dialect without 529) is kept, named.
 */
export function statusTruth(upstreamStatus: number, clientStatus: number): Judged {
  const detail = `${upstreamStatus} → ${clientStatus}`;
  if (isOk(upstreamStatus)) {
    return isOk(clientStatus)
      ? judged("preserved", `${detail} (the upstream answered)`)
      : judged("rejected", `${detail}: the upstream answered, the gateway refused`);
  }
  if (isOk(clientStatus)) return judged("mangled", detail, "status-relabelled");
  if (clientStatus === upstreamStatus) return judged("preserved", detail);
  if (statusClass(clientStatus) !== statusClass(upstreamStatus))
    return judged("mangled", detail, "status-class-changed");
  return judged("preserved", `${detail} (same class)`, "status-recoded");
}

function judgeStatus(read: ReadExchange): Judged {
  const up = read.exchange.upstreamReply;
  const down = read.exchange.clientResponse;
  if (!up) return nothingUpstream(read);
  if (!down) return judged("error", `${up.status} → no client response recorded`);
  return statusTruth(up.status, down.status);
}

function nothingUpstream(read: ReadExchange): Judged {
  const down = read.exchange.clientResponse;
  if (!down) return judged("error", "nothing reached the backend and no client response");
  return isOk(down.status)
    ? judged(
        "dropped",
        `no request reached the backend; client got ${down.status}`,
        "not-forwarded",
      )
    : judged("rejected", `not forwarded; client got ${down.status}`);
}

/**
 * Invariant: the upstream's error message text MUST appear in the client's error (a gateway
 * prefix or wrapper is fine). "undefined" or "[object Object]" in its place is mangled.
 */
export function judgeErrorText(read: ReadExchange): Judged {
  const upWire = read.exchange.upstreamReply;
  const downWire = read.exchange.clientResponse;
  if (!upWire) return nothingUpstream(read);
  const sent = errorMessage(upstreamOf(read));
  if (sent === undefined || normalizeText(sent) === "")
    return judged("error", `upstream ${upWire.status} carries no error message to follow`);
  if (!downWire) return judged("error", `${show(sent)} → no client response recorded`);
  return errorTextIn(sent, downWire, clientOf(read));
}

function errorTextIn(sent: string, downWire: ExchangeReply, client: CanonicalReply | undefined) {
  const want = normalizeText(sent);
  if (looksGzip(downWire.body))
    return judged("mangled", `${show(sent)} → gzip bytes the client cannot read`, "undecoded-gzip");
  const got = errorMessage(client);
  if (got !== undefined && normalizeText(got).includes(want))
    return judged("preserved", `${show(sent)} → ${show(got)} (${downWire.status})`);
  if (got !== undefined && STRINGIFIED.test(got.trim()))
    return judged("mangled", `${show(sent)} → ${show(got)}`, "error-object-stringified");
  if (isOk(downWire.status) && normalizeText(visibleText(client)).includes(want))
    return judged(
      "mangled",
      `${show(sent)} → answer text of a ${downWire.status}`,
      "error-as-content",
    );
  if (normalizeText(downWire.body).includes(want))
    return judged(
      "preserved",
      `${show(sent)} → in the ${downWire.status} body, outside the error message (${show(got)})`,
      "outside-message",
    );
  return judged("dropped", `${show(sent)} → ${show(got)} (${downWire.status})`, "error-text-lost");
}

/** Invariant: an error body MUST reach the client decoded (gzip undone or passed with its header). */
function judgeGzip(read: ReadExchange): Judged {
  const downWire = read.exchange.clientResponse;
  const upWire = read.exchange.upstreamReply;
  if (downWire && looksGzip(downWire.body)) {
    const encoding = downWire.headers.find(([n]) => n === "content-encoding")?.[1];
    return judged(
      "mangled",
      `gzip error body → client got gzip bytes (content-encoding: ${encoding ?? "absent"})`,
      "undecoded-gzip",
    );
  }
  const text = judgeErrorText(read);
  const zipped = upWire?.headers.some(([n, v]) => n === "content-encoding" && /gzip/i.test(v));
  return { ...text, reason: `${zipped ? "gzip" : "plain"} error body: ${text.reason}` };
}

/** Invariant: after an upstream error or cut mid-stream, the client MUST NOT see a clean end. */
function judgeStreamEnd(read: ReadExchange): Judged {
  if (read.exchange.mode !== "stream")
    return judged("error", "stream end is judged on streamed attempts only");
  const upWire = read.exchange.upstreamReply;
  const downWire = read.exchange.clientResponse;
  if (!upWire) return nothingUpstream(read);
  const up = upstreamOf(read);
  const failed =
    !isOk(upWire.status) || up?.stream?.error !== undefined || up?.stream?.complete === false;
  if (!failed) return judged("error", "the upstream stream ended cleanly: no failure to follow");
  const what = up?.stream?.error
    ? `error after ${up.stream.events} event(s)`
    : `cut after ${up?.stream?.events ?? 0} event(s)`;
  if (!downWire) return judged("error", `${what} → no client response recorded`);
  if (!isOk(downWire.status)) return judged("preserved", `${what} → client got ${downWire.status}`);
  const client = clientOf(read);
  if (!client) return judged("preserved", `${what} → unreadable client stream (not a clean end)`);
  const told = client.error ?? client.stream?.error;
  if (told) return judged("preserved", `${what} → error ${show(told.message)}`);
  if (client.stream && !client.stream.complete)
    return judged(
      "preserved",
      `${what} → client stream cut after ${client.stream.events} event(s)`,
    );
  const end = client.stream?.terminalEvent ?? "a complete body";
  return judged("mangled", `${what} → client saw a clean end (${end})`, "clean-end-after-failure");
}

const JUDGES: Record<FailureField, (read: ReadExchange) => Judged> = {
  "failure.status": judgeStatus,
  "failure.error_text": judgeErrorText,
  "failure.retries": judgeRetries,
  "failure.deadline": judgeDeadline,
  "failure.gzip": judgeGzip,
  "failure.fallback": judgeFallback,
  "failure.stream_end": judgeStreamEnd,
};

/** The verdict for one failure field. */
export function judgeFailure(read: ReadExchange, field: FailureField): Verdict {
  const j = JUDGES[field](read);
  return verdict({
    direction: "reply",
    subject: field,
    field,
    kind: j.verdict,
    detail: j.reason,
    cause: j.cause,
  });
}
