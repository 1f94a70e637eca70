/**
 * The seam between the mock and the dialects room: every body the mock sends in a dialect's
 * own framing (default replies, staged canonical replies, error bodies) comes from
 * `dialects/reply.ts`; this file only turns them into units (one per stream event, one for a
 * plain body) so a chunk plan can cut the bytes per event.
 */
import type { CanonicalReply, Part } from "../dialects/canonical.ts";
import { DIALECTS, type Dialect } from "../dialects/dialect.ts";
import { encodeJsonArrayUnits } from "../dialects/json-array.ts";
import { dialectModule } from "../dialects/registry.ts";
import {
  type ErrorSpec,
  encodeEvents,
  type StreamEvent,
  writeError,
  writeReply,
  writeReplyEvents,
} from "../dialects/reply.ts";
import type { ReplyForm } from "../dialects/reply-forms.ts";
import { parseStreamPlan } from "../dialects/stream-plan.ts";

export type { ErrorSpec } from "../dialects/reply.ts";

export interface RenderedBody {
  /** Empty when the body carries no content type (raw bytes, an empty error). */
  contentType: string;
  units: Buffer[];
  stream: boolean;
}

export function jsonBody(value: unknown, contentType = "application/json"): RenderedBody {
  return { contentType, units: [Buffer.from(JSON.stringify(value))], stream: false };
}

/** An error body in the dialect's shape, or one of the variants that break adapters. */
export function errorBody(dialect: Dialect, spec: ErrorSpec): RenderedBody {
  const written = writeError(dialect, spec);
  const body = Buffer.from(written.body);
  return {
    contentType: written.headers["content-type"] ?? "",
    units: body.length ? [body] : [],
    stream: false,
  };
}

/**
 * A JSON error body as a JSON array holding it, pretty-printed as Google writes it; a body
 * that is not JSON (an HTML page, no body) is left as it is.
 */
export function jsonErrorInArray(body: RenderedBody): RenderedBody {
  if (!body.contentType.includes("json") || body.units.length === 0) return body;
  const value: unknown = JSON.parse(Buffer.concat(body.units).toString("utf8"));
  return { ...body, units: [Buffer.from(JSON.stringify([value], null, 2))] };
}

export interface CanonicalOptions {
  stream: boolean;
  /**
   * The framing the request's reply-form row chose (dialects/reply-forms.ts): Gemini's JSON
   * array where `alt=sse` was not asked. A stream without one (a staged reply that forces a
   * stream on a JSON request) takes the dialect's own framing.
   */
  form?: ReplyForm;
  /** A plan (dialects/stream-plan.ts), validated here. */
  plan?: unknown;
  /** The model the request named: a reply that names none echoes it, as providers do. */
  requestModel?: string;
  /**
   * Whether the stream reports usage, from the request's reply-form row (Chat sends its usage
   * chunk only when `stream_options.include_usage` asks). Unset: as for a request that did
   * not ask. A plan's `usage` overrides either.
   */
  usage?: "sent" | "omitted";
}

/**
 * Usage a reply staged without one carries: every provider sends usage on every reply, and
 * clients that read it unconditionally (the Anthropic SDK's stream helper, the AI SDK's
 * schemas) break without it.
 */
const NO_USAGE = Object.freeze({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });

type CanonicalInput = CanonicalReply | { parts: unknown[]; [key: string]: unknown };

/** A canonical reply in the dialect's framing: a JSON body, or one unit per stream event. */
export function canonicalBody(
  dialect: Dialect,
  canonical: CanonicalInput,
  options: CanonicalOptions,
): RenderedBody {
  const written = writeCanonical(dialect, canonical, options);
  if ("units" in written) return written;
  return {
    contentType: written.contentType,
    units: written.events.map((e) => Buffer.from(encodeEvents(dialect, [e]))),
    stream: true,
  };
}

/** Stream events encoded between two pauses of `canonicalBodySlices`. */
const EVENTS_PER_SLICE = 1024;

/**
 * `canonicalBody` as a generator that pauses after writing the events and after every
 * `EVENTS_PER_SLICE` of them encoded, so a caller can give the event loop back between
 * slices of a heavy stream (heavy-render.ts). The same bytes (heavy-take.test.ts).
 */
export function* canonicalBodySlices(
  dialect: Dialect,
  canonical: CanonicalInput,
  options: CanonicalOptions,
): Generator<void, RenderedBody> {
  const written = writeCanonical(dialect, canonical, options);
  if ("units" in written) return written;
  const { events } = written;
  if (events.length > EVENTS_PER_SLICE) yield;
  const units: Buffer[] = [];
  for (let i = 0; i < events.length; i++) {
    units.push(Buffer.from(encodeEvents(dialect, [events[i] as StreamEvent])));
    if ((i + 1) % EVENTS_PER_SLICE === 0 && i + 1 < events.length) yield;
  }
  return { contentType: written.contentType, units, stream: true };
}

/** The reply written whole (a JSON body, a JSON array), or a stream's events to encode. */
function writeCanonical(
  dialect: Dialect,
  canonical: CanonicalInput,
  options: CanonicalOptions,
): RenderedBody | { contentType: string; events: StreamEvent[] } {
  const given = canonical as Partial<CanonicalReply>;
  const reply = {
    ...given,
    dialect: given.dialect ?? dialect,
    model: given.model ?? options.requestModel,
    usage: given.usage ?? NO_USAGE,
    extras: given.extras ?? {},
  } as CanonicalReply;
  const { contentTypes } = dialectModule(dialect);
  if (!options.stream) return jsonBody(writeReply(dialect, reply), contentTypes.json);
  const givenPlan = options.plan === undefined ? {} : parseStreamPlan(options.plan, "body.plan");
  const plan =
    givenPlan.usage === undefined ? { ...givenPlan, ...usagePlan(dialect, options) } : givenPlan;
  const events = writeReplyEvents(dialect, reply, plan);
  if (options.form === "json-array") {
    const units = encodeJsonArrayUnits(events).map((u) => Buffer.from(u));
    return { contentType: contentTypes.json, units, stream: true };
  }
  return { contentType: contentTypes.stream, events };
}

export interface DefaultReplyContext {
  model?: string;
  stream: boolean;
  /** The request's reply-form row's form and usage (dialects/reply-forms.ts). */
  form?: ReplyForm;
  usage?: "sent" | "omitted";
}

/**
 * The reply to an unstaged generate request: one text part, a plain stop, and usage. The
 * same request shape always gets the same bytes (the records, not the reply, carry the
 * nonce), so rendered defaults are cached.
 */
export function defaultReply(dialect: Dialect, ctx: DefaultReplyContext): CanonicalReply {
  const parts: Part[] = [{ type: "text", text: "Hello from the gatecheck mock." }];
  return {
    dialect,
    model: ctx.model ?? "gatecheck-mock",
    parts,
    stopReason: "stop",
    usage: { inputTokens: 12, outputTokens: 9, totalTokens: 21 },
    extras: {},
  };
}

const DEFAULT_CACHE_LIMIT = 512;
/**
 * Rendered defaults by dialect, stream and usage (a fixed few), then by model (undefined
 * when the request names none): no key string is built per request.
 */
const defaultCache = new Map<string, Map<string | undefined, RenderedBody>>();
let defaultCacheSize = 0;

export function defaultBody(dialect: Dialect, ctx: DefaultReplyContext): RenderedBody {
  const form = ctx.stream ? (ctx.form ?? "sse") : "json";
  const shape = DEFAULT_SHAPES[dialect][form][ctx.usage === "sent" ? 1 : 0];
  let byModel = defaultCache.get(shape);
  const cached = byModel?.get(ctx.model);
  if (cached) return cached;
  const body = canonicalBody(dialect, defaultReply(dialect, ctx), {
    stream: ctx.stream,
    plan: ctx.stream ? { textChunkSize: 8 } : undefined,
    ...(ctx.form === undefined ? {} : { form: ctx.form }),
    ...(ctx.usage === undefined ? {} : { usage: ctx.usage }),
  });
  if (defaultCacheSize >= DEFAULT_CACHE_LIMIT) {
    defaultCache.clear();
    defaultCacheSize = 0;
    byModel = undefined;
  }
  if (!byModel) {
    byModel = new Map();
    defaultCache.set(shape, byModel);
  }
  byModel.set(ctx.model, body);
  defaultCacheSize += 1;
  return body;
}

type Pair<T> = [T, T];

const FORMS: readonly ReplyForm[] = ["json", "sse", "ndjson", "json-array"];

/** The cache's first-level keys, made once: `dialect|form|usage`, usage indexed 0/1. */
const DEFAULT_SHAPES = Object.fromEntries(
  DIALECTS.map((d) => [
    d,
    Object.fromEntries(FORMS.map((f) => [f, [`${d}|${f}|0`, `${d}|${f}|1`]])),
  ]),
) as Record<Dialect, Record<ReplyForm, Pair<string>>>;

/**
 * Where a plan that says nothing about usage puts it: where the request's reply-form row says
 * the stream omits it (a Chat stream that did not ask), none; else where the dialect puts it.
 * Without a row, a dialect whose streams carry usage only when asked leaves it out.
 */
function usagePlan(dialect: Dialect, options: CanonicalOptions): { usage?: "omit" } {
  const usage =
    options.usage ??
    (dialectModule(dialect).traits.streamUsage === "when-asked" ? "omitted" : "sent");
  return usage === "omitted" ? { usage: "omit" } : {};
}
