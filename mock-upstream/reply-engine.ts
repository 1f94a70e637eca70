/**
 * The reply engine: a staged reply spec (or a default reply) becomes a wire plan. The body
 * is rendered in the dialect of the request's path, cut into writes by the chunk plan, given
 * its delays, keep-alives, compression and ending. Faults are presets over the same knobs.
 */

import type { Dialect } from "../dialects/dialect.ts";
import type { ReplyForm } from "../dialects/reply-forms.ts";
import { encodeStream, type StreamEvent } from "../dialects/sse.ts";
import {
  type CanonicalOptions,
  canonicalBody,
  canonicalBodySlices,
  type DefaultReplyContext,
  defaultBody,
  errorBody,
  jsonBody,
  jsonErrorInArray,
  type RenderedBody,
} from "./dialect-replies.ts";
import { acceptsGzip } from "./request-facts.ts";
import type { Fault, ReplySpec, SseEventSpec, WirePlanSpec } from "./staged-reply-spec.ts";
import {
  bodyLength,
  cutUnits,
  gzipFrames,
  truncateFrames,
  type WireFrame,
  type WireReply,
} from "./wire-plan.ts";

export interface ReplyContext {
  /** Dialect of the path the request came in on (or the best guess for an unknown path). */
  dialect: Dialect;
  /** The request asked for a stream (body `stream: true`, Gemini's stream method, Ollama's default). */
  stream: boolean;
  /** The form the request's reply-form row answers in (dialects/reply-forms.ts), and
   * whether its stream reports usage. */
  form: ReplyForm;
  usage: "sent" | "omitted" | undefined;
  /** An error answers in a JSON array of one error object (Gemini without `alt=sse`). */
  errorInArray: boolean;
  /** The request's headers: `accept-encoding` is read only for a plan that gzips if accepted. */
  requestHeaders: readonly (readonly [string, string])[];
  /** What a 2xx reply that gives no body is rendered from: the dialect's default reply. */
  defaultReply: DefaultReplyContext;
}

const SSE_CONTENT_TYPE = "text/event-stream; charset=utf-8";

function sseUnits(events: readonly SseEventSpec[]): Buffer[] {
  return events.map((e) => {
    if ("raw" in e) return Buffer.from(e.raw);
    const event: StreamEvent =
      "comment" in e
        ? { comment: e.comment, data: "" }
        : {
            ...(e.event === undefined ? {} : { event: e.event }),
            data: typeof e.data === "string" ? e.data : JSON.stringify(e.data),
          };
    return Buffer.from(encodeStream("sse", [event]));
  });
}

function defaultErrorMessage(status: number): string {
  return `gatecheck mock: staged HTTP ${status}`;
}

/**
 * Rendered staged bodies, per spec body and per (dialect, stream, status, and for a canonical
 * body the request's model and usage ask): a spec is immutable once parsed, and an "always"
 * reply of 2,000 events must not be re-encoded for every request. Bounded per body, since
 * models come from traffic.
 */
const rendered = new WeakMap<object, Map<string, RenderedBody>>();
const RENDERED_PER_BODY_LIMIT = 256;

function renderKey(spec: ReplySpec, ctx: ReplyContext): string {
  const key = `${ctx.dialect}|${ctx.stream}|${spec.status}|${ctx.errorInArray}`;
  if (!spec.body || !("canonical" in spec.body)) return key;
  return `${key}|${ctx.form}|${ctx.usage ?? ""}|${ctx.defaultReply.model ?? ""}`;
}

/** The body a reply spec describes, before wire shaping. */
export function renderBody(spec: ReplySpec, ctx: ReplyContext): RenderedBody {
  const body = spec.body;
  if (!body) return renderUncached(spec, ctx);
  const key = renderKey(spec, ctx);
  let out = rendered.get(body)?.get(key);
  if (!out) {
    out = renderUncached(spec, ctx);
    remember(body, key, out);
  }
  return out;
}

function remember(body: object, key: string, out: RenderedBody): void {
  let forBody = rendered.get(body);
  if (!forBody) {
    forBody = new Map();
    rendered.set(body, forBody);
  }
  if (forBody.size >= RENDERED_PER_BODY_LIMIT) forBody.clear();
  forBody.set(key, out);
}

/**
 * `renderBody` as a generator that pauses between slices of a canonical stream's encoding
 * (`canonicalBodySlices`), for a caller that gives the event loop back between them: the
 * same bytes, into the same cache.
 */
export function* renderBodySlices(
  spec: ReplySpec,
  ctx: ReplyContext,
): Generator<void, RenderedBody> {
  const body = spec.body;
  if (!body || !("canonical" in body)) return renderBody(spec, ctx);
  const key = renderKey(spec, ctx);
  const known = rendered.get(body)?.get(key);
  if (known) return known;
  const out = yield* canonicalBodySlices(ctx.dialect, body.canonical, canonicalOptions(body, ctx));
  remember(body, key, out);
  return out;
}

/**
 * `renderBodySlices` for the body the reply will carry once its fault is applied (a fault
 * that replaces the body renders the replacement): after it, `planReply` finds the body in
 * the cache.
 */
export function renderReplySlices(
  spec: ReplySpec,
  ctx: ReplyContext,
): Generator<void, RenderedBody> {
  return renderBodySlices(applyFault(spec).spec, ctx);
}

type CanonicalSpecBody = Extract<NonNullable<ReplySpec["body"]>, { canonical: unknown }>;

/** A staged `stream` that overrides the request's choice takes the dialect's own framing. */
function canonicalOptions(body: CanonicalSpecBody, ctx: ReplyContext): CanonicalOptions {
  const stream = body.stream ?? ctx.stream;
  const asked = stream === ctx.stream;
  return {
    stream,
    plan: body.plan,
    requestModel: ctx.defaultReply.model,
    ...(asked ? { form: ctx.form } : {}),
    ...(asked && ctx.usage !== undefined ? { usage: ctx.usage } : {}),
  };
}

function renderUncached(spec: ReplySpec, ctx: ReplyContext): RenderedBody {
  const body = spec.body;
  if (!body) {
    if (spec.status >= 200 && spec.status < 300) return defaultBody(ctx.dialect, ctx.defaultReply);
    return errorIn(
      ctx,
      errorBody(ctx.dialect, {
        status: spec.status,
        message: defaultErrorMessage(spec.status),
      }),
    );
  }
  if ("json" in body) return jsonBody(body.json);
  if ("text" in body) {
    const contentType = body.contentType ?? "text/plain; charset=utf-8";
    return { contentType, units: [Buffer.from(body.text)], stream: false };
  }
  if ("raw" in body) {
    const units = [Buffer.from(body.raw, body.encoding)];
    return { contentType: "", units, stream: false };
  }
  if ("sse" in body) {
    return { contentType: SSE_CONTENT_TYPE, units: sseUnits(body.sse), stream: true };
  }
  if ("ndjson" in body) {
    const units = body.ndjson.map((line) => Buffer.from(`${JSON.stringify(line)}\n`));
    return { contentType: "application/x-ndjson", units, stream: true };
  }
  if ("frames" in body) {
    const units = body.frames.map((f) => Buffer.from(f.data, f.encoding));
    return { contentType: "", units, stream: true };
  }
  if ("canonical" in body) {
    return canonicalBody(ctx.dialect, body.canonical, canonicalOptions(body, ctx));
  }
  const message = body.error.message || defaultErrorMessage(spec.status);
  return errorIn(ctx, errorBody(ctx.dialect, { status: spec.status, ...body.error, message }));
}

/** An error body as the request's variant carries it: in a JSON array where its row says so. */
function errorIn(ctx: ReplyContext, body: RenderedBody): RenderedBody {
  return ctx.errorInArray ? jsonErrorInArray(body) : body;
}

/** What each fault changes in the reply it is set on. */
const FAULT_PRESETS = {
  reset: { wire: { end: "reset" } },
  "reset-before-headers": { before: "reset" },
  "close-mid-body": { wire: { end: "close" } },
  hang: { before: "hang" },
  "html-502": { status: 502, html: true },
  empty: { empty: true },
  "malformed-chunk": { malformedChunk: true },
} as const satisfies Record<
  Fault,
  {
    wire?: Pick<WirePlanSpec, "end">;
    before?: "reset" | "hang";
    status?: number;
    html?: true;
    empty?: true;
    malformedChunk?: true;
  }
>;

function applyFault(spec: ReplySpec): {
  spec: ReplySpec;
  before?: "reset" | "hang";
  malformed: boolean;
} {
  if (!spec.fault) return { spec, malformed: false };
  const preset: (typeof FAULT_PRESETS)[Fault] = FAULT_PRESETS[spec.fault];
  let next: ReplySpec = { ...spec };
  if ("wire" in preset) next.wire = { ...preset.wire, ...spec.wire };
  if ("html" in preset) {
    next = { ...next, status: preset.status, body: { error: { message: "", shape: "html" } } };
  }
  if ("empty" in preset) next = { ...next, body: { raw: "", encoding: "utf8" } };
  return {
    spec: next,
    before: "before" in preset ? preset.before : undefined,
    malformed: "malformedChunk" in preset,
  };
}

/** A malformed HTTP chunk: a size line that is not hex, written outside chunked framing. */
const MALFORMED_CHUNK = Buffer.from("zz\r\nnot a chunk\r\n");

/** A plan before compression: what gzip, truncation and the ending still act on. */
interface Shaped {
  spec: ReplySpec;
  before: "reset" | "hang" | undefined;
  malformed: boolean;
  frames: WireFrame[];
  headers: [string, string][];
  gzip: boolean;
  stream: boolean;
}

function shape(input: ReplySpec, ctx: ReplyContext, body: RenderedBody | undefined): Shaped {
  const { spec, before, malformed } = applyFault(input);
  const wire = spec.wire ?? {};
  const rendered = body ?? renderBody(spec, ctx);
  let units = rendered.units;
  if (wire.keepAlive) {
    const text = Buffer.from(wire.keepAlive.text ?? ": keep-alive\n\n");
    const every = wire.keepAlive.every;
    units = units.flatMap((u, i) =>
      (i + 1) % every === 0 && i < units.length - 1 ? [u, text] : [u],
    );
  }
  const givenDelays = "frames" in (spec.body ?? {}) ? frameDelays(spec) : undefined;
  const plan = wire.chunks ?? (rendered.stream ? "event" : "whole");
  let frames: WireFrame[] = cutUnits(units, plan).map((bytes, i) => ({
    bytes,
    delayMs:
      givenDelays?.[i] ?? (i === 0 ? (wire.firstByteDelayMs ?? 0) : (wire.writeDelayMs ?? 0)),
  }));
  if (frames.length === 0 && (wire.firstByteDelayMs ?? 0) > 0) {
    frames = [{ bytes: Buffer.alloc(0), delayMs: wire.firstByteDelayMs ?? 0 }];
  }
  const headers: [string, string][] = [];
  const staged = normalizeHeaders(spec.headers);
  const hasType = staged.some(([k]) => k.toLowerCase() === "content-type");
  if (!hasType && rendered.contentType) headers.push(["content-type", rendered.contentType]);
  headers.push(...staged);
  const gzip = wire.gzip ?? "never";
  return {
    spec,
    before,
    malformed,
    frames,
    headers,
    gzip: gzip === "always" || (gzip === "if-accepted" && acceptsGzip(ctx.requestHeaders)),
    stream: rendered.stream,
  };
}

/** The plan from its (possibly compressed) frames: truncation, malformed chunk, framing. */
function finish(shaped: Shaped, compressed: WireFrame[]): WireReply {
  const { spec, before, malformed } = shaped;
  const wire = spec.wire ?? {};
  let frames = compressed;
  const fullLength = bodyLength(frames);
  let ending = wire.end ?? "complete";
  const cutAt =
    wire.endAfterBytes ??
    (ending === "complete" || ending === "hang" ? fullLength : Math.floor(fullLength / 2));
  if (cutAt < fullLength) frames = truncateFrames(frames, cutAt);
  if (malformed) {
    frames.push({ bytes: MALFORMED_CHUNK, delayMs: wire.writeDelayMs ?? 0, raw: true });
    ending = "close";
  }
  const transfer =
    wire.transfer ??
    (shaped.stream || malformed || frames.length > 1 ? "chunked" : "content-length");
  return {
    status: spec.status,
    headers: shaped.headers,
    frames,
    headersDelayMs: wire.headersDelayMs ?? 0,
    ending,
    transfer,
    ...(before ? { before } : {}),
    declaredLength: fullLength,
  };
}

/** The wire plan of a reply; `body` overrides the spec's body when the caller rendered it. */
export async function planReply(
  input: ReplySpec,
  ctx: ReplyContext,
  body?: RenderedBody,
): Promise<WireReply> {
  const shaped = shape(input, ctx, body);
  if (!shaped.gzip) return finish(shaped, shaped.frames);
  const frames = await gzipFrames(shaped.frames);
  shaped.headers.push(["content-encoding", "gzip"]);
  return finish(shaped, frames);
}

/**
 * Plans of replies that only give a status (and perhaps a body): the plan is then a
 * function of the rendered body and the status alone, and the rendered body is itself
 * cached (a default reply per dialect and model, a staged body per spec), so the plan is
 * made once, not per request. Keyed weakly: a body evicted from its cache takes its plans.
 * A cached plan is shared by every request it answers and is never written to.
 */
const plainPlans = new WeakMap<RenderedBody, Map<number, WireReply>>();

function isPlain(spec: ReplySpec): boolean {
  return spec.wire === undefined && spec.headers === undefined && spec.fault === undefined;
}

/**
 * `planReply` without waiting, for every plan that needs no compression (gzip is the
 * only asynchronous step); undefined when the plan does. A request answered from here
 * skips a turn of the microtask queue, and a plain reply (a default reply, a staged
 * status) reuses its cached plan.
 */
export function planReplyNow(
  input: ReplySpec,
  ctx: ReplyContext,
  body?: RenderedBody,
): WireReply | undefined {
  if (!isPlain(input)) {
    const shaped = shape(input, ctx, body);
    return shaped.gzip ? undefined : finish(shaped, shaped.frames);
  }
  const rendered = body ?? renderBody(input, ctx);
  let byStatus = plainPlans.get(rendered);
  const cached = byStatus?.get(input.status);
  if (cached) return cached;
  const shaped = shape(input, ctx, rendered);
  const plan = finish(shaped, shaped.frames);
  if (!byStatus) {
    byStatus = new Map();
    plainPlans.set(rendered, byStatus);
  }
  byStatus.set(input.status, plan);
  return plan;
}

function frameDelays(spec: ReplySpec): number[] | undefined {
  const body = spec.body;
  if (!body || !("frames" in body)) return undefined;
  const plan = spec.wire?.chunks;
  if (plan !== undefined && plan !== "event") return undefined;
  return body.frames.map((f) => f.delayMs ?? 0);
}

function normalizeHeaders(headers: ReplySpec["headers"]): [string, string][] {
  if (!headers) return [];
  return Array.isArray(headers) ? headers.map(([k, v]) => [k, v]) : Object.entries(headers);
}
