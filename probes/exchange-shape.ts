/**
 * The exchange file's shape: the zod schema (which explains what is wrong) and a hand-written
 * check of the same rules (which is fast). `exchange.ts` builds the lens's Exchange from a
 * value either of them accepts.
 *
 * Headers may be an object or `[name, value]` pairs (order and repeats kept); request bodies
 * may be JSON or the raw string sent; reply bodies are the raw string (a stream's bytes).
 */
import { z } from "zod";
import { CLIENT_DIALECTS, DIALECTS } from "../dialects/dialect.ts";

export const headersSchema = z.union([
  z.array(z.tuple([z.string(), z.string()])),
  z.record(z.string(), z.union([z.string(), z.array(z.string())])),
]);

const requestBodySchema = z.union([
  z.string(),
  z.record(z.string(), z.unknown()),
  z.array(z.unknown()),
]);

const clientRequestSchema = z.strictObject({
  path: z.string().startsWith("/"),
  headers: headersSchema.default([]),
  body: requestBodySchema,
});

const forwardedSchema = z.strictObject({
  method: z.string().default("POST"),
  path: z.string().startsWith("/"),
  headers: headersSchema.default([]),
  body: requestBodySchema,
});

const replySchema = z.strictObject({
  status: z.number().int().min(100).max(599),
  headers: headersSchema.default([]),
  body: z.string(),
});

export const exchangeSchema = z.strictObject({
  route: z.strictObject({ client: z.enum(CLIENT_DIALECTS), backend: z.enum(DIALECTS) }),
  mode: z.enum(["stream", "non-stream"]),
  clientRequest: clientRequestSchema,
  forwarded: z.array(forwardedSchema),
  upstreamReply: replySchema.optional(),
  clientResponse: replySchema.optional(),
  /** Canary values the sender planted, to recognise them (or their redaction tags) downstream. */
  secrets: z.array(z.string().min(1)).optional(),
  /** Free text for whoever reads the file; ignored by the lens. */
  note: z.string().optional(),
  /** When things happened (the sweep fills it; the failure judges read retries and waits). */
  timing: z
    .strictObject({
      forwarded: z.array(
        z.strictObject({
          atMs: z.number().nonnegative(),
          status: z.number().int().optional(),
          retryAfter: z.string().optional(),
        }),
      ),
      clientTotalMs: z.number().nonnegative().optional(),
    })
    .optional(),
});

export type ExchangeInput = z.input<typeof exchangeSchema>;

// ---------------------------------------------------------------------------------------
// The hand-written check: the same rules as exchangeSchema over plain JSON-like values, for
// speed (`check` and the corpus self-check parse exchange after exchange; the schema cost a
// quarter of judging one). It only says yes or no: on no, the schema runs and explains. It
// must never say yes where the schema says no, or to a value the schema would copy into
// something different (a `__proto__` key, a symbol or non-enumerable key, a class instance):
// those go to the schema too. The key sets come from the schema; a new rule in the schema
// needs its line here (exchange.test.ts compares both paths on broken variants of the files).

const CLIENT_NAMES: ReadonlySet<string> = new Set(CLIENT_DIALECTS);
const DIALECT_NAMES: ReadonlySet<string> = new Set(DIALECTS);
const keysOf = (schema: { shape: object }): ReadonlySet<string> =>
  new Set(Object.keys(schema.shape));
const EXCHANGE_KEYS = keysOf(exchangeSchema);
const ROUTE_KEYS = keysOf(exchangeSchema.shape.route);
const CLIENT_REQUEST_KEYS = keysOf(clientRequestSchema);
const FORWARDED_KEYS = keysOf(forwardedSchema);
const REPLY_KEYS = keysOf(replySchema);
const TIMING_KEYS = keysOf(exchangeSchema.shape.timing.unwrap());
const TIMING_RECORD_KEYS = keysOf(exchangeSchema.shape.timing.unwrap().shape.forwarded.element);

type Plain = Record<string, unknown>;

/** An object literal or JSON object whose keys are all in `allowed` (strictObject's rule). */
function plainWith(value: unknown, allowed: ReadonlySet<string>): value is Plain {
  if (!isPlain(value)) return false;
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

/** JSON.parse's objects and object literals (the schema copies anything else into one). */
function isPlain(value: unknown): value is Plain {
  return (
    typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype
  );
}

/**
 * A plain object the schema's record copy would reproduce key for key. `json`: the value is
 * JSON.parse's, whose objects have no symbol or non-enumerable keys, so only an own
 * `__proto__` key (which JSON.parse does make) needs looking for; counting the keys twice
 * was ~40% of the hand check's profile on a typical file (docs/lens.md, Round 4).
 */
function isCopyableRecord(value: unknown, json: boolean): value is Plain {
  if (!isPlain(value) || Object.hasOwn(value, "__proto__")) return false;
  if (json) return true;
  let enumerable = 0;
  for (const _ in value) enumerable++;
  return Reflect.ownKeys(value).length === enumerable;
}

function isHeaders(value: unknown, json: boolean): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) {
    for (const pair of value) {
      if (!Array.isArray(pair) || pair.length !== 2) return false;
      if (typeof pair[0] !== "string" || typeof pair[1] !== "string") return false;
    }
    return true;
  }
  if (!isCopyableRecord(value, json)) return false;
  for (const name in value) {
    const v = value[name];
    if (typeof v === "string") continue;
    if (!Array.isArray(v)) return false;
    for (const item of v) if (typeof item !== "string") return false;
  }
  return true;
}

/** A request body: raw text, or a JSON object (arrays are rare: the schema takes them). */
function isBody(value: unknown, json: boolean): boolean {
  return typeof value === "string" || isCopyableRecord(value, json);
}

function isPath(value: unknown): boolean {
  return typeof value === "string" && value.startsWith("/");
}

function isRequest(value: unknown, allowed: ReadonlySet<string>, json: boolean): boolean {
  if (!plainWith(value, allowed)) return false;
  if (value.method !== undefined && typeof value.method !== "string") return false;
  return isPath(value.path) && isHeaders(value.headers, json) && isBody(value.body, json);
}

function isReply(value: unknown, json: boolean): boolean {
  if (value === undefined) return true;
  if (!plainWith(value, REPLY_KEYS)) return false;
  const status = value.status;
  return (
    typeof status === "number" &&
    Number.isSafeInteger(status) &&
    status >= 100 &&
    status <= 599 &&
    isHeaders(value.headers, json) &&
    typeof value.body === "string"
  );
}

function isNonNegative(value: unknown): boolean {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

function isTiming(value: unknown): boolean {
  if (value === undefined) return true;
  if (!plainWith(value, TIMING_KEYS) || !Array.isArray(value.forwarded)) return false;
  if (value.clientTotalMs !== undefined && !isNonNegative(value.clientTotalMs)) return false;
  for (const f of value.forwarded) {
    if (!plainWith(f, TIMING_RECORD_KEYS) || !isNonNegative(f.atMs)) return false;
    if (f.status !== undefined && !(typeof f.status === "number" && Number.isSafeInteger(f.status)))
      return false;
    if (f.retryAfter !== undefined && typeof f.retryAfter !== "string") return false;
  }
  return true;
}

function isSecrets(value: unknown): boolean {
  if (value === undefined) return true;
  if (!Array.isArray(value)) return false;
  for (const s of value) if (typeof s !== "string" || s.length === 0) return false;
  return true;
}

/**
 * True when exchangeSchema would accept `value` and copy it into an equal value. `json`
 * says the value is JSON.parse's own (see isCopyableRecord).
 */
export function isExchangeShape(value: unknown, json = false): value is ExchangeInput {
  if (!plainWith(value, EXCHANGE_KEYS)) return false;
  const route = value.route;
  if (!plainWith(route, ROUTE_KEYS)) return false;
  if (typeof route.client !== "string" || !CLIENT_NAMES.has(route.client)) return false;
  if (typeof route.backend !== "string" || !DIALECT_NAMES.has(route.backend)) return false;
  if (value.mode !== "stream" && value.mode !== "non-stream") return false;
  if (!isRequest(value.clientRequest, CLIENT_REQUEST_KEYS, json)) return false;
  const forwarded = value.forwarded;
  if (!Array.isArray(forwarded)) return false;
  for (const f of forwarded) if (!isRequest(f, FORWARDED_KEYS, json)) return false;
  if (!isReply(value.upstreamReply, json) || !isReply(value.clientResponse, json)) return false;
  if (value.note !== undefined && typeof value.note !== "string") return false;
  return isSecrets(value.secrets) && isTiming(value.timing);
}
