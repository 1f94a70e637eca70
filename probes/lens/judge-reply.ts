/**
 * The reply direction: for every feature the upstream reply carried, what the client
 * received. Status truth comes first: an upstream error relabelled 2xx is mangled, a
 * gateway's own error answering a good upstream reply is a loud refusal.
 */
import type { CanonicalReply } from "../../dialects/canonical.ts";
import type { ClientDialect, Dialect, Mode } from "../../dialects/dialect.ts";
import type { Cause } from "../causes.ts";
import type { Verdict } from "../verdict.ts";
import { sameValue, show, showChange, verdict } from "./describe.ts";
import type { ReplyFeature } from "./field-names.ts";
import { noEquivalent } from "./no-equivalent.ts";
import {
  errorMessage,
  judgeErrorMessage,
  judgeErrorType,
  judgeFraming,
  judgeStatus,
  judgeTerminal,
  type Outcome,
  ok,
  upstreamError,
} from "./reply-status.ts";
import { type PartOf, replyPartsOf, replyVisibleText } from "./reply-view.ts";
import { argumentsValue, normalizeText } from "./request-view.ts";
import { expectedStopReason, safetyErased, stopReasonCause } from "./stop-reasons.ts";

export interface ReplyPair {
  clientDialect: ClientDialect;
  backend: Dialect;
  mode: Mode;
  upstream: CanonicalReply;
  upstreamStatus: number;
  client: CanonicalReply;
  clientStatus: number;
}

function partsOf<T extends "text" | "tool-call" | "thinking" | "reasoning" | "refusal">(
  reply: CanonicalReply,
  type: T,
): readonly PartOf<T>[] {
  return replyPartsOf(reply, type);
}

function visibleText(reply: CanonicalReply): string {
  return replyVisibleText(reply);
}

/** The reply features the upstream reply carries, in REPLY_FEATURES order. */
export function replyFeaturesOf(
  upstream: CanonicalReply,
  upstreamStatus: number,
  mode: Mode,
): ReplyFeature[] {
  const out: ReplyFeature[] = [];
  const err = upstream.error ?? upstream.stream?.error;
  const failed = err !== undefined || !ok(upstreamStatus);
  if (upstream.id !== undefined && !failed) out.push("id");
  if (visibleText(upstream) !== "") out.push("text");
  if (upstream.stopReason !== undefined && !failed) out.push("finish_reason");
  if (upstream.stopSequence !== undefined) out.push("stop_sequence");
  if (partsOf(upstream, "tool-call").length > 0)
    out.push("tool_calls[].id", "tool_calls[].name", "tool_calls[].arguments");
  const thinking = partsOf(upstream, "thinking");
  if (thinking.length > 0) out.push("thinking");
  if (thinking.some((t) => t.signature !== undefined)) out.push("thinking.signature");
  if (partsOf(upstream, "reasoning").length > 0) out.push("reasoning");
  if (partsOf(upstream, "refusal").length > 0) out.push("refusal");
  const u = upstream.usage;
  if (u?.inputTokens !== undefined) out.push("usage.input_tokens");
  if (u?.outputTokens !== undefined) out.push("usage.output_tokens");
  if (u?.cacheReadTokens !== undefined) out.push("usage.cache_read_tokens");
  if (u?.cacheWriteTokens !== undefined) out.push("usage.cache_write_tokens");
  if (u?.reasoningTokens !== undefined) out.push("usage.reasoning_tokens");
  if (!ok(upstreamStatus)) out.push("error.status");
  if (err?.message !== undefined) out.push("error.message");
  // With no upstream type, the client's type is still judged against its status (reply-status.ts).
  if (err?.type !== undefined || !ok(upstreamStatus)) out.push("error.type");
  if (mode === "stream" && upstream.stream) out.push("stream.terminal", "stream.framing");
  return out;
}

function compareValues(sent: unknown, got: unknown, cause?: Cause): Outcome {
  if (got === undefined) return { absent: true, detail: `${show(sent)} → absent`, sent };
  return compareSame(sent, got, cause);
}

/** A zero count and no count mean the same: nothing was cached, no reasoning tokens. */
function compareCount(sent: number | undefined, got: number | undefined): Outcome {
  if (sent === 0 && got === undefined) return { kind: "preserved", detail: "0 → absent (zero)" };
  return compareValues(sent, got);
}

function compareSame(sent: unknown, got: unknown, cause?: Cause): Outcome {
  if (sameValue(sent, got)) return { kind: "preserved", detail: showChange(sent, got), sent, got };
  return cause === undefined
    ? { kind: "mangled", detail: showChange(sent, got), sent, got }
    : { kind: "mangled", detail: showChange(sent, got), cause, sent, got };
}

/** Private reasoning must arrive as private reasoning, not in the visible text. */
function judgePrivate(pair: ReplyPair, type: "thinking" | "reasoning"): Outcome {
  const sent = normalizeText(
    partsOf(pair.upstream, type)
      .map((p) => p.text)
      .join("\n"),
  );
  const got = normalizeText(
    [...partsOf(pair.client, "thinking"), ...partsOf(pair.client, "reasoning")]
      .map((p) => p.text)
      .join("\n"),
  );
  if (got.includes(sent)) return { kind: "preserved", detail: showChange(sent, got) };
  if (normalizeText(visibleText(pair.client)).includes(sent)) {
    return { kind: "mangled", detail: `${show(sent)} → visible text`, cause: "reasoning-as-text" };
  }
  if (got === "") return { absent: true, detail: `${show(sent)} → absent` };
  return { kind: "mangled", detail: showChange(sent, got) };
}

function raw(r: CanonicalReply): string {
  return r.rawStopReason ? ` (${r.rawStopReason})` : "";
}

function calls(r: CanonicalReply) {
  return partsOf(r, "tool-call");
}

function list<T>(xs: T[]): T[] | undefined {
  return xs.length > 0 ? xs : undefined;
}

function signatures(r: CanonicalReply): string[] {
  const out: string[] = [];
  for (const t of partsOf(r, "thinking")) if (t.signature !== undefined) out.push(t.signature);
  return out;
}

function judgeStop(pair: ReplyPair): Outcome {
  const upstream = pair.upstream.stopReason as NonNullable<CanonicalReply["stopReason"]>;
  const hasCalls = partsOf(pair.upstream, "tool-call").length > 0;
  const expected = expectedStopReason(upstream, pair.clientDialect, hasCalls);
  const got = pair.client.stopReason;
  const detail = `${show(upstream)}${raw(pair.upstream)} → ${show(got)}${raw(pair.client)}`;
  if (got === undefined) return { absent: true, detail };
  // OpenAI's dialects say "refused" with a refusal part and a natural stop (Chat
  // message.refusal with finish_reason "stop"): the signal is carried, in content.
  // @see https://platform.openai.com/docs/guides/structured-outputs#refusals
  if (upstream === "refusal" && got === "stop" && partsOf(pair.client, "refusal").length > 0) {
    return { kind: "preserved", detail: `${detail} (refusal carried as a refusal part)` };
  }
  if (safetyErased(upstream, got)) {
    const row = noEquivalent("reply", "finish_reason", pair.clientDialect);
    if (row) return { kind: "no-equivalent", detail: `${detail} (${row.reason})` };
    return { kind: "mangled", detail, cause: "erased-safety" };
  }
  // A stop of no canonical meaning (Responses `incomplete` for an unnamed reason, `cancelled`)
  // said as a natural end hides that the reply did not finish: never preserved (issue 20 §2).
  if (upstream === "other") {
    if (got === "other") return { kind: "preserved", detail };
    if (got === "stop" || got === "stop_sequence") {
      return { kind: "mangled", detail, cause: "erased-other" };
    }
  }
  if (got === expected) return { kind: "preserved", detail };
  const cause = stopReasonCause(expected, got);
  return cause ? { kind: "mangled", detail, cause } : { kind: "mangled", detail };
}

function featureOutcome(pair: ReplyPair, feature: ReplyFeature): Outcome {
  const { upstream: up, client: down } = pair;
  switch (feature) {
    case "id":
      // Each dialect issues ids in its own shape (msg_, chatcmpl-, resp_); across dialects a
      // new id is the translation, within one dialect it is a rewrite.
      if (down.id !== undefined && down.id !== up.id && pair.backend !== pair.clientDialect) {
        return {
          kind: "preserved",
          detail: showChange(up.id, down.id),
          cause: "reissued",
        };
      }
      return compareValues(up.id, down.id, "rewritten");
    case "text": {
      const got = visibleText(down);
      return compareValues(visibleText(up), got === "" ? undefined : got);
    }
    case "finish_reason":
      return judgeStop(pair);
    case "stop_sequence":
      return compareValues(up.stopSequence, down.stopSequence);
    case "tool_calls[].id":
      return compareValues(
        calls(up).map((c) => c.id),
        list(calls(down).map((c) => c.id)),
        "id-rewritten",
      );
    case "tool_calls[].name":
      return compareValues(
        calls(up).map((c) => c.name),
        list(calls(down).map((c) => c.name)),
      );
    case "tool_calls[].arguments":
      return compareValues(
        calls(up).map((c) => argumentsValue(c.arguments)),
        list(calls(down).map((c) => argumentsValue(c.arguments))),
      );
    case "thinking":
      return judgePrivate(pair, "thinking");
    case "reasoning":
      return judgePrivate(pair, "reasoning");
    case "thinking.signature": {
      return compareValues(signatures(up), list(signatures(down)));
    }
    case "refusal": {
      const sent = partsOf(up, "refusal")
        .map((p) => p.text)
        .join("\n");
      const got = [...partsOf(down, "refusal").map((p) => p.text), visibleText(down)].join("\n");
      return normalizeText(got).includes(normalizeText(sent))
        ? { kind: "preserved", detail: `${show(sent)} → carried` }
        : { absent: true, detail: `${show(sent)} → absent` };
    }
    case "usage.input_tokens":
      return compareCount(up.usage?.inputTokens, down.usage?.inputTokens);
    case "usage.output_tokens":
      return compareCount(up.usage?.outputTokens, down.usage?.outputTokens);
    case "usage.cache_read_tokens":
      return compareCount(up.usage?.cacheReadTokens, down.usage?.cacheReadTokens);
    case "usage.cache_write_tokens":
      return compareCount(up.usage?.cacheWriteTokens, down.usage?.cacheWriteTokens);
    case "usage.reasoning_tokens":
      return compareCount(up.usage?.reasoningTokens, down.usage?.reasoningTokens);
    case "error.status":
      return judgeStatus(pair);
    case "error.message":
      return judgeErrorMessage(pair);
    case "error.type":
      return judgeErrorType(pair);
    case "error.internals":
      // Judged on the two bodies' text (error-internals.ts, from judge-read.ts), which the
      // canonical pair does not hold; replyFeaturesOf never lists it.
      return { kind: "error", detail: "judged on the bodies, not on the canonical replies" };
    case "stream.terminal":
      return judgeTerminal(pair);
    case "stream.framing":
      return judgeFraming(pair);
  }
}

/** A gateway's own error answering a good upstream reply: loud, whatever the feature. */
function gatewayRefusal(pair: ReplyPair): string | undefined {
  if (!ok(pair.upstreamStatus) || upstreamError(pair) || ok(pair.clientStatus)) return undefined;
  const message = errorMessage(pair.client.error);
  return `upstream ${pair.upstreamStatus} → client ${pair.clientStatus}${message ? ` ${show(message)}` : " with no message"}`;
}

/**
 * Whether the client's reply used a documented carrier that has a place for the feature, where
 * its dialect has none: a thinking part in a Chat reply came in Portkey's `content_blocks`,
 * which carries the signature beside the thinking. The no-equivalent row then does not apply.
 */
function carrierInUse(pair: ReplyPair, feature: ReplyFeature): boolean {
  return feature === "thinking.signature" && partsOf(pair.client, "thinking").length > 0;
}

export function judgeReplyFeature(pair: ReplyPair, feature: ReplyFeature): Verdict {
  const base = { direction: "reply", subject: feature, field: feature } as const;
  const refusal = gatewayRefusal(pair);
  if (refusal) {
    const cause = errorMessage(pair.client.error) ? undefined : "no-message";
    return verdict({ ...base, kind: "rejected", detail: refusal, cause });
  }
  const o = featureOutcome(pair, feature);
  if (!("absent" in o)) {
    return verdict({
      ...base,
      kind: o.kind,
      detail: o.detail,
      cause: o.cause,
      sent: o.sent,
      got: o.got,
    });
  }
  const row = carrierInUse(pair, feature)
    ? undefined
    : noEquivalent("reply", feature, pair.clientDialect);
  if (row) {
    const detail = `${o.detail} (${pair.clientDialect}: ${row.reason})`;
    return verdict({ ...base, kind: "no-equivalent", detail, sent: o.sent });
  }
  return verdict({ ...base, kind: "dropped", detail: o.detail, sent: o.sent });
}

/**
 * Content the client received that the upstream never sent (a tool call, text, reasoning).
 * Not judged when the upstream failed: what a gateway says instead is judged as status truth.
 */
export function replyInventions(pair: ReplyPair): Verdict[] {
  if (!ok(pair.upstreamStatus) || upstreamError(pair) || !ok(pair.clientStatus)) return [];
  const out: Verdict[] = [];
  const { upstream: up, client: down } = pair;
  // Each list is built only when the upstream has none and the client some: most replies
  // invent nothing, and eight lists per exchange were built to say so.
  if (visibleText(up) === "" && visibleText(down) !== "") invented(out, "text", texts(down));
  if (calls(up).length === 0 && calls(down).length > 0) invented(out, "tool_calls[].id", ids(down));
  if (!hasPrivateText(up) && hasPrivateText(down)) invented(out, "thinking", privateTexts(down));
  if (partsOf(up, "refusal").length === 0 && partsOf(down, "refusal").length > 0)
    invented(out, "refusal", refusals(down));
  return out;
}

function invented(out: Verdict[], feature: ReplyFeature, down: unknown[]): void {
  const detail = `absent → ${show(down)}`;
  out.push(
    verdict({ direction: "reply", subject: feature, field: feature, kind: "invented", detail }),
  );
}

function hasPrivateText(r: CanonicalReply): boolean {
  return partsOf(r, "thinking").length > 0 || partsOf(r, "reasoning").length > 0;
}

function texts(r: CanonicalReply): string[] {
  const text = visibleText(r);
  return text === "" ? [] : [text];
}

function ids(r: CanonicalReply): string[] {
  return calls(r).map((c) => c.id);
}

function privateTexts(r: CanonicalReply): string[] {
  return [...partsOf(r, "thinking"), ...partsOf(r, "reasoning")].map((p) => p.text);
}

function refusals(r: CanonicalReply): string[] {
  return partsOf(r, "refusal").map((p) => p.text);
}

export { errorMessage };

export function judgeReply(pair: ReplyPair): Verdict[] {
  const out: Verdict[] = [];
  for (const f of replyFeaturesOf(pair.upstream, pair.upstreamStatus, pair.mode))
    out.push(judgeReplyFeature(pair, f));
  for (const v of replyInventions(pair)) out.push(v);
  return out;
}
