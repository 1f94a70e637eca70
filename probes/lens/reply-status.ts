/**
 * Status truth and stream lifecycle in the reply direction: an upstream error must reach the
 * client as an error with its status, message and type class; a stream must end the way the
 * upstream's did; the client's events must be well framed.
 */
import type { CanonicalReply, ReplyError } from "../../dialects/canonical.ts";
import { show, showChange } from "./describe.ts";
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

export function judgeErrorType(pair: ReplyPair): Outcome {
  const sent = upstreamError(pair)?.type ?? "";
  const got = clientError(pair)?.type;
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

export function judgeFraming(pair: ReplyPair): Outcome {
  const down = pair.client.stream;
  if (!down) return { kind: "mangled", detail: "stream → not a stream", cause: "not-a-stream" };
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
