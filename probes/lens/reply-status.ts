/**
 * Status truth and stream lifecycle in the reply direction: an upstream error must reach the
 * client as an error with its status, message and type class; a stream must end the way the
 * upstream's did; the client's events must be well framed.
 */
import type { CanonicalReply, ReplyError } from "../../dialects/canonical.ts";
import { dialectModule } from "../../dialects/registry.ts";
import { faultKey, faultsWithin, relayedDetail } from "./as-upstream.ts";
import { sameValue, show, showChange } from "./describe.ts";
import { errorFamily } from "./error-types.ts";
import type { ReplyPair } from "./judge-reply.ts";
import type { Judgement as Outcome } from "./judgement.ts";
import { normalizeText } from "./request-view.ts";

export type { Outcome };

export function ok(status: number): boolean {
  return status >= 200 && status < 300;
}

export function upstreamError(pair: ReplyPair): ReplyError | undefined {
  return pair.upstream.error ?? pair.upstream.stream?.error;
}

export function clientError(pair: ReplyPair): ReplyError | undefined {
  return pair.client.error ?? pair.client.stream?.error;
}

export function judgeStatus(pair: ReplyPair): Outcome {
  const detail = `${pair.upstreamStatus} → ${pair.clientStatus}`;
  if (ok(pair.clientStatus)) return { kind: "mangled", detail, cause: "status-relabelled" };
  if (pair.clientStatus === pair.upstreamStatus) return { kind: "preserved", detail };
  return { kind: "mangled", detail, cause: "status-changed" };
}

export function judgeErrorMessage(pair: ReplyPair): Outcome {
  const sent = upstreamError(pair)?.message ?? "";
  const got = clientError(pair)?.message;
  if (got === undefined) return { absent: true, detail: `${show(sent)} → absent` };
  if (normalizeText(got).includes(normalizeText(sent))) {
    return { kind: "preserved", detail: showChange(sent, got) };
  }
  return { kind: "mangled", detail: showChange(sent, got) };
}

/**
 * The type the client's dialect gives an error of this status (its writer's table, read back
 * by its reader: Anthropic 529 `overloaded_error`, OpenAI 400 `invalid_request_error`).
 */
function dialectType(pair: ReplyPair, status: number): string | undefined {
  const reply = dialectModule(pair.clientDialect).reply;
  return reply.readError(reply.errorObject(status, "x"))?.type;
}

/**
 * An upstream error with no type (Ollama's `{"error": "..."}`, a bare status): the client's
 * type must be its own dialect's type for the status it got (issue 20 §2), by class.
 */
function judgeTypeForStatus(pair: ReplyPair, got: string | undefined): Outcome {
  const expected = dialectType(pair, pair.clientStatus);
  const sent = `absent (${pair.clientDialect}: ${pair.clientStatus} is ${show(expected ?? "untyped")})`;
  if (got === undefined) return { absent: true, detail: `${sent} → absent` };
  if (expected === undefined || got === expected || errorFamily(got) === errorFamily(expected)) {
    return { kind: "preserved", detail: `${sent} → ${show(got)}`, cause: "status-type", got };
  }
  const detail = `${sent} → ${show(got)} (${errorFamily(expected)} → ${errorFamily(got)})`;
  return { kind: "mangled", detail, cause: "status-type", got };
}

/** An error body shown in a reason: its JSON or text, or that there was none. */
function bodyShown(raw: unknown): string {
  return raw === undefined ? "an empty body" : show(raw);
}

export function judgeErrorType(pair: ReplyPair): Outcome {
  const got = clientError(pair)?.type;
  const upstreamType = upstreamError(pair)?.type;
  if (upstreamType === undefined && !ok(pair.upstreamStatus) && !ok(pair.clientStatus)) {
    // The upstream's untyped body passed on as it came, into its own dialect: the client got
    // what the provider sent (the type for the status is owed by a body the gateway wrote).
    const sent = upstreamError(pair)?.raw;
    if (pair.backend === pair.clientDialect && sameValue(sent, clientError(pair)?.raw)) {
      const detail = relayedDetail(`no type in ${bodyShown(sent)}`);
      return { kind: "preserved", detail, cause: "as-upstream" };
    }
    return judgeTypeForStatus(pair, got);
  }
  const sent = upstreamType ?? "";
  if (got === undefined) return { absent: true, detail: `${show(sent)} → absent` };
  if (got === sent || errorFamily(got) === errorFamily(sent)) {
    return { kind: "preserved", detail: showChange(sent, got) };
  }
  return {
    kind: "mangled",
    detail: `${showChange(sent, got)} (${errorFamily(sent)} → ${errorFamily(got)})`,
  };
}

/** How a stream ended, for a reason string. */
function streamEnd(s: CanonicalReply["stream"]): string {
  if (!s) return "not a stream";
  return s.complete
    ? `ended with ${s.terminalEvent ?? "its terminal event"}`
    : `cut after ${s.events} event(s)`;
}

export function judgeTerminal(pair: ReplyPair): Outcome {
  const up = pair.upstream.stream;
  const down = pair.client.stream;
  const detail = `${streamEnd(up)} → ${streamEnd(down)}`;
  if (!down) return { kind: "mangled", detail, cause: "not-a-stream" };
  const upErrored = up?.error !== undefined;
  if (upErrored) {
    const told = down.error !== undefined || pair.client.error !== undefined || !down.complete;
    return told
      ? {
          kind: "preserved",
          detail: `error mid-stream → ${down.error ? "error event" : streamEnd(down)}`,
        }
      : {
          kind: "mangled",
          detail: `error mid-stream → ${streamEnd(down)}`,
          cause: "error-swallowed",
        };
  }
  if (up?.complete && !down.complete) return { kind: "dropped", detail, cause: "truncated-stream" };
  if (up && !up.complete && down.complete)
    return { kind: "mangled", detail, cause: "completion-invented" };
  return { kind: "preserved", detail };
}

/** A stream's framing faults, each without its place (as-upstream.ts `faultKey`). */
function framingFaults(stream: NonNullable<CanonicalReply["stream"]>): string[] {
  const out = stream.malformed.map(faultKey);
  for (let i = 0; i < stream.orphanFragments; i++) out.push("orphan tool fragment");
  return out;
}

/**
 * The framing faults the client's stream shares with the upstream's, passed on in the same
 * dialect: the upstream's own bytes (a stream it cut mid-event) relayed, not the gateway's
 * framing. A translating gateway writes every event itself, so there they are its own.
 */
function framingRelayed(pair: ReplyPair): Outcome | undefined {
  const up = pair.upstream.stream;
  const down = pair.client.stream;
  if (!up || !down || pair.backend !== pair.clientDialect) return undefined;
  const theirs = framingFaults(up);
  if (theirs.length === 0 || !faultsWithin(framingFaults(down), theirs)) return undefined;
  const shown =
    up.malformed.length > 0
      ? show(up.malformed[0])
      : `${up.orphanFragments} orphan tool fragment(s)`;
  const detail = relayedDetail(`${theirs.length} malformed: ${shown}`);
  return { kind: "preserved", detail, cause: "as-upstream" };
}

export function judgeFraming(pair: ReplyPair): Outcome {
  const down = pair.client.stream;
  if (!down) return { kind: "mangled", detail: "stream → not a stream", cause: "not-a-stream" };
  if (down.malformed.length > 0 || down.orphanFragments > 0) {
    const relayed = framingRelayed(pair);
    if (relayed) return relayed;
  }
  if (down.malformed.length > 0) {
    return {
      kind: "mangled",
      detail: `well framed → ${down.malformed.length} malformed: ${show(down.malformed[0])}`,
      cause: "malformed-events",
    };
  }
  if (down.orphanFragments > 0) {
    return {
      kind: "mangled",
      detail: `well framed → ${down.orphanFragments} orphan tool fragment(s)`,
      cause: "orphan-fragments",
    };
  }
  return {
    kind: "preserved",
    detail: `${pair.upstream.stream?.events ?? 0} event(s) → ${down.events} well-framed event(s)`,
  };
}

/** The error's message, or one read from a body shape the dialect reader does not know
 * (Portkey answers `{"status":"failure","message":...}`). */
export function errorMessage(error: ReplyError | undefined): string | undefined {
  if (error?.message !== undefined) return error.message;
  const raw = error?.raw;
  if (raw && typeof raw === "object" && "message" in raw) {
    const m = (raw as { message: unknown }).message;
    if (typeof m === "string" && m !== "") return m;
  }
  if (typeof raw === "string") {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === "object" && "message" in parsed) {
        const m = (parsed as { message: unknown }).message;
        if (typeof m === "string" && m !== "") return m;
      }
    } catch {
      return raw.trim() === "" ? undefined : raw.trim().slice(0, 200);
    }
  }
  return undefined;
}
