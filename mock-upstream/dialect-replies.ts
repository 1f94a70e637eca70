/**
 * The seam between the mock and the dialects room: every body the mock sends in a dialect's
 * own framing (default replies, staged canonical replies, error bodies) comes from
 * `dialects/reply.ts`; this file only turns them into units (one per stream event, one for a
 * plain body) so a chunk plan can cut the bytes per event.
 */
import type { CanonicalReply, Part } from "../dialects/canonical.ts";
import { DIALECTS, type Dialect } from "../dialects/dialect.ts";
import { dialectModule } from "../dialects/registry.ts";
import {
  type ErrorSpec,
  encodeEvents,
  writeError,
  writeReply,
  writeReplyEvents,
} from "../dialects/reply.ts";
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

export interface CanonicalOptions {
  stream: boolean;
  /** A stream plan (dialects/stream-plan.ts), validated here. */
  plan?: unknown;
  /** The model the request named: a reply that names none echoes it, as providers do. */
  requestModel?: string;
  /**
   * The request asked for OpenAI Chat's usage chunk (`stream_options.include_usage`): without
   * it a Chat stream carries none unless the plan's `usage` forces it.
   */
  includeUsage?: boolean;
}

/**
 * Usage a reply staged without one carries: every provider sends usage on every reply, and
 * clients that read it unconditionally (the Anthropic SDK's stream helper, the AI SDK's
 * schemas) break without it.
 */
const NO_USAGE = Object.freeze({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });

/** A canonical reply in the dialect's framing: a JSON body, or one unit per stream event. */
export function canonicalBody(
  dialect: Dialect,
  canonical: CanonicalReply | { parts: unknown[]; [key: string]: unknown },
  options: CanonicalOptions,
): RenderedBody {
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
  return {
    contentType: contentTypes.stream,
    units: events.map((e) => Buffer.from(encodeEvents(dialect, [e]))),
    stream: true,
  };
}

export interface DefaultReplyContext {
  model?: string;
  stream: boolean;
  /** OpenAI Chat sends its usage chunk only when `stream_options.include_usage` asks. */
  includeUsage?: boolean;
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
  const shape = DEFAULT_SHAPES[dialect][ctx.stream ? 1 : 0][ctx.includeUsage === true ? 1 : 0];
  let byModel = defaultCache.get(shape);
  const cached = byModel?.get(ctx.model);
  if (cached) return cached;
  const body = canonicalBody(dialect, defaultReply(dialect, ctx), {
    stream: ctx.stream,
    plan: ctx.stream ? { textChunkSize: 8 } : undefined,
    includeUsage: ctx.includeUsage,
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

/** The cache's first-level keys, made once: `dialect|stream|usage`, indexed 0/1 by flag. */
const DEFAULT_SHAPES = Object.fromEntries(
  DIALECTS.map((d) => {
    const key = (stream: number, usage: number) => `${d}|${stream}|${usage}`;
    return [
      d,
      [
        [key(0, 0), key(0, 1)],
        [key(1, 0), key(1, 1)],
      ],
    ];
  }),
) as Record<Dialect, Pair<Pair<string>>>;

/**
 * Where a plan that says nothing about usage puts it: a dialect whose streams carry usage only
 * when the request asks (OpenAI Chat's `stream_options.include_usage`) leaves it out unless
 * asked; every other dialect always sends it.
 */
function usagePlan(dialect: Dialect, options: CanonicalOptions): { usage?: "omit" } {
  const whenAsked = dialectModule(dialect).traits.streamUsage === "when-asked";
  return whenAsked && !options.includeUsage ? { usage: "omit" } : {};
}
