/**
 * From a probe's `upstream` (what the backend should answer) to the mock's staged reply,
 * bound to one attempt's nonce. Canonical replies are rendered by the mock in the dialect
 * the request arrives in; raw replies are per backend dialect, so the route picks one.
 */
import type { Dialect } from "../dialects/dialect.ts";
import type { Probe, UpstreamStep } from "../probes/corpus/probe.ts";
import { stepsOf } from "../probes/self-check/render-upstream.ts";

/** Input of the mock's `StagedReplySpec` / `ReplySpec`; the mock validates it with zod. */
type Spec = Record<string, unknown>;

export class StageError extends Error {
  override name = "StageError";
}

/** The staged reply for one attempt, or undefined when the mock's default reply will do. */
export function stagedReplyFor(probe: Probe, nonce: string, backend: Dialect): Spec | undefined {
  const upstream = probe.upstream;
  if (!upstream) return undefined;
  const match = { nonce };
  if ("sequence" in upstream) {
    return {
      match,
      times: 1,
      sequence: upstream.sequence.map((step) => stepSpec(probe, step, backend)),
    };
  }
  // "always": a gateway that retries a request sees the same answer every time.
  return { match, times: "always", reply: stepSpec(probe, upstream, backend) };
}

/** One upstream step as the mock's reply spec, rendered for the backend where it is raw. */
export function stepSpec(probe: Probe, step: UpstreamStep, backend: Dialect): Spec {
  const wire = step.wire ? { wire: step.wire } : {};
  if ("reply" in step) {
    return {
      status: 200,
      body: { canonical: step.reply, ...(step.plan ? { plan: step.plan } : {}) },
      ...wire,
    };
  }
  if ("error" in step) {
    const { status, message, type, shape, headers } = step.error;
    return {
      status,
      ...(headers ? { headers } : {}),
      body: { error: { message, ...(type ? { type } : {}), ...(shape ? { shape } : {}) } },
      ...wire,
    };
  }
  const raw = step.raw[backend];
  if (!raw) {
    throw new StageError(
      `probe ${probe.id} gives raw replies for ${Object.keys(step.raw).join(", ")} but not for backend ${backend}; restrict it with "backends"`,
    );
  }
  return {
    status: raw.status,
    ...(raw.headers ? { headers: raw.headers } : {}),
    body: { raw: raw.body },
    ...wire,
  };
}

/** True when the probe can be staged for this backend (raw replies exist only per dialect). */
export function stageableFor(probe: Probe, backend: Dialect): boolean {
  return stepsOf(probe.upstream).every(
    (step) => !("raw" in step) || step.raw[backend] !== undefined,
  );
}
