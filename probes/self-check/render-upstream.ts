/**
 * What the mock would answer for a probe, rendered with the dialect writers: the staged
 * canonical reply in the backend's dialect (JSON or its stream events), an error in one of
 * the body shapes, or the raw bytes given for that backend. The self-check needs the same
 * bytes the mock sends, without a socket, so it renders them here from the same writers.
 */

import type { CanonicalReply } from "../../dialects/canonical.ts";
import type { Dialect, Mode } from "../../dialects/dialect.ts";
import { dialectModule } from "../../dialects/registry.ts";
import { encodeEvents, writeError, writeReply, writeReplyEvents } from "../../dialects/reply.ts";
import type { Upstream, UpstreamStep } from "../corpus/probe.ts";

export interface RenderedReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The mock's answer when nothing is staged: a short text turn. */
export const DEFAULT_STEP: UpstreamStep = {
  reply: { parts: [{ type: "text", text: "OK" }], stopReason: "stop", extras: {} },
};

/** The replies a probe stages, in the order the mock serves them. */
export function stepsOf(upstream: Upstream | undefined): UpstreamStep[] {
  if (!upstream) return [DEFAULT_STEP];
  return "sequence" in upstream ? upstream.sequence : [upstream];
}

export function canonicalOf(step: { reply: Omit<CanonicalReply, "dialect"> }, dialect: Dialect) {
  return { ...step.reply, dialect } satisfies CanonicalReply;
}

/** One staged step as the backend sends it, or undefined when a raw step has no bytes for it. */
export function renderStep(
  step: UpstreamStep,
  backend: Dialect,
  mode: Mode,
): RenderedReply | undefined {
  if ("raw" in step) {
    const raw = step.raw[backend];
    return raw ? { status: raw.status, headers: raw.headers ?? {}, body: raw.body } : undefined;
  }
  if ("error" in step) {
    const written = writeError(backend, step.error);
    return { ...written, headers: { ...written.headers, ...step.error.headers } };
  }
  const reply = canonicalOf(step, backend);
  if (mode === "non-stream") {
    return {
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(writeReply(backend, reply)),
    };
  }
  const events = writeReplyEvents(backend, reply, step.plan ?? {});
  const contentType = dialectModule(backend).contentTypes.stream;
  return {
    status: 200,
    headers: { "content-type": contentType },
    body: encodeEvents(backend, events),
  };
}
