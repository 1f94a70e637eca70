/**
 * The exchange format: one probe's traffic as `gatecheck check` and the sweep hand it to
 * the lens. What the client sent, what the backend received (one record per forwarded
 * request), and optionally what the upstream replied and what the client got back.
 *
 * Headers may be an object or `[name, value]` pairs (order and repeats kept); request bodies
 * may be JSON or the raw string sent; reply bodies are the raw string (a stream's bytes).
 */
import { z } from "zod";
import {
  CLIENT_DIALECTS,
  type ClientDialect,
  DIALECTS,
  type Dialect,
  type Mode,
} from "../dialects/dialect.ts";

const headersSchema = z.union([
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

/** A plain object the schema's record copy would reproduce key for key. */
function isCopyableRecord(value: unknown): value is Plain {
  if (!isPlain(value) || Object.hasOwn(value, "__proto__")) return false;
  let enumerable = 0;
  for (const _ in value) enumerable++;
  return Reflect.ownKeys(value).length === enumerable;
}

function isHeaders(value: unknown): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) {
    for (const pair of value) {
      if (!Array.isArray(pair) || pair.length !== 2) return false;
      if (typeof pair[0] !== "string" || typeof pair[1] !== "string") return false;
    }
    return true;
  }
  if (!isCopyableRecord(value)) return false;
  for (const name in value) {
    const v = value[name];
    if (typeof v === "string") continue;
    if (!Array.isArray(v)) return false;
    for (const item of v) if (typeof item !== "string") return false;
  }
  return true;
}

/** A request body: raw text, or a JSON object (arrays are rare: the schema takes them). */
function isBody(value: unknown): boolean {
  return typeof value === "string" || isCopyableRecord(value);
}

function isPath(value: unknown): boolean {
  return typeof value === "string" && value.startsWith("/");
}

function isRequest(value: unknown, allowed: ReadonlySet<string>): boolean {
  if (!plainWith(value, allowed)) return false;
  if (value.method !== undefined && typeof value.method !== "string") return false;
  return isPath(value.path) && isHeaders(value.headers) && isBody(value.body);
}

function isReply(value: unknown): boolean {
  if (value === undefined) return true;
  if (!plainWith(value, REPLY_KEYS)) return false;
  const status = value.status;
  return (
    typeof status === "number" &&
    Number.isSafeInteger(status) &&
    status >= 100 &&
    status <= 599 &&
    isHeaders(value.headers) &&
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

/** True when exchangeSchema would accept `value` and copy it into an equal value. */
export function isExchangeShape(value: unknown): value is ExchangeShape {
  if (!plainWith(value, EXCHANGE_KEYS)) return false;
  const route = value.route;
  if (!plainWith(route, ROUTE_KEYS)) return false;
  if (typeof route.client !== "string" || !CLIENT_NAMES.has(route.client)) return false;
  if (typeof route.backend !== "string" || !DIALECT_NAMES.has(route.backend)) return false;
  if (value.mode !== "stream" && value.mode !== "non-stream") return false;
  if (!isRequest(value.clientRequest, CLIENT_REQUEST_KEYS)) return false;
  const forwarded = value.forwarded;
  if (!Array.isArray(forwarded)) return false;
  for (const f of forwarded) if (!isRequest(f, FORWARDED_KEYS)) return false;
  if (!isReply(value.upstreamReply) || !isReply(value.clientResponse)) return false;
  if (value.note !== undefined && typeof value.note !== "string") return false;
  return isSecrets(value.secrets) && isTiming(value.timing);
}

export type HeaderPairs = [string, string][];

export interface WireRequest {
  method: string;
  /** The path with its query string, as sent. */
  path: string;
  /** Lower-case names, order and repeats kept. */
  headers: HeaderPairs;
  /** The parsed JSON body, or the raw string when it is not JSON. */
  body: unknown;
  /** The body's text (JSON bodies given as objects are serialized). */
  rawBody: string;
}

export interface WireReply {
  status: number;
  headers: HeaderPairs;
  body: string;
}

/**
 * Clock facts of an exchange, which bodies cannot show: one entry per `forwarded` record in
 * the same order (arrival offset from the first, and the status and `retry-after` the backend
 * answered it with), and how long the client waited for its whole response.
 */
export interface ExchangeTiming {
  forwarded: { atMs: number; status?: number; retryAfter?: string }[];
  clientTotalMs?: number;
}

/** A parsed exchange: headers as lower-case pairs, bodies parsed where they are JSON. */
export interface Exchange {
  route: { client: ClientDialect; backend: Dialect };
  mode: Mode;
  clientRequest: WireRequest;
  forwarded: WireRequest[];
  upstreamReply?: WireReply;
  clientResponse?: WireReply;
  secrets: string[];
  timing?: ExchangeTiming;
}

export type ExchangeErrorCode = "invalid-json" | "invalid-exchange" | "unreadable-client-request";

export class ExchangeError extends Error {
  constructor(
    readonly code: ExchangeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ExchangeError";
  }
}

/** What both paths build from: the schema's input (its output, defaults filled, is one too). */
type ExchangeShape = ExchangeInput;
type HeadersShape = z.output<typeof headersSchema>;

function pairs(headers: HeadersShape | undefined): HeaderPairs {
  const out: HeaderPairs = [];
  if (headers === undefined) return out;
  if (Array.isArray(headers)) {
    for (const [n, v] of headers) out.push([n.toLowerCase(), v]);
    return out;
  }
  for (const name in headers) {
    const value = headers[name] as string | string[];
    const lower = name.toLowerCase();
    if (typeof value === "string") out.push([lower, value]);
    else for (const v of value) out.push([lower, v]);
  }
  return out;
}

function wireRequest(r: {
  method?: string | undefined;
  path: string;
  headers?: HeadersShape | undefined;
  body: unknown;
}): WireRequest {
  const method = r.method ?? "POST";
  const headers = pairs(r.headers);
  if (typeof r.body !== "string") return jsonBodyRequest(method, r.path, headers, r.body);
  let body: unknown;
  try {
    body = JSON.parse(r.body);
  } catch {
    body = r.body;
  }
  return { method, path: r.path, headers, body, rawBody: r.body };
}

/**
 * A request whose body the file gave as JSON. Its text is read only when a credential is
 * looked for in a forwarded body, so it is serialized on first read: a getter in the place of
 * the field, enumerable like it, so JSON.stringify and spreading see the same text.
 */
function jsonBodyRequest(
  method: string,
  path: string,
  headers: HeaderPairs,
  body: unknown,
): WireRequest {
  let raw: string | undefined;
  return {
    method,
    path,
    headers,
    body,
    get rawBody() {
      raw ??= JSON.stringify(body);
      return raw;
    },
  };
}

function wireReply(r: {
  status: number;
  headers?: HeadersShape | undefined;
  body: string;
}): WireReply {
  return { status: r.status, headers: pairs(r.headers), body: r.body };
}

function timingOf(t: NonNullable<ExchangeShape["timing"]>): ExchangeTiming {
  const forwarded = t.forwarded.map((f) => ({
    atMs: f.atMs,
    ...(f.status === undefined ? {} : { status: f.status }),
    ...(f.retryAfter === undefined ? {} : { retryAfter: f.retryAfter }),
  }));
  return t.clientTotalMs === undefined
    ? { forwarded }
    : { forwarded, clientTotalMs: t.clientTotalMs };
}

function describeIssues(error: z.ZodError, source: string): string {
  const lines = error.issues.slice(0, 8).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join(".") : "(top level)";
    return `  ${path}: ${issue.message}`;
  });
  const more = error.issues.length > 8 ? `\n  … and ${error.issues.length - 8} more` : "";
  return `${source} is not a valid exchange:\n${lines.join("\n")}${more}`;
}

/** The exchange built from a value the schema accepts (defaults may still be missing). */
function buildExchange(e: ExchangeShape): Exchange {
  const forwarded: WireRequest[] = [];
  for (const f of e.forwarded) forwarded.push(wireRequest(f));
  const out: Exchange = {
    route: e.route,
    mode: e.mode,
    clientRequest: wireRequest(e.clientRequest),
    forwarded,
    secrets: e.secrets ?? [],
  };
  if (e.upstreamReply) out.upstreamReply = wireReply(e.upstreamReply);
  if (e.clientResponse) out.clientResponse = wireReply(e.clientResponse);
  if (e.timing) out.timing = timingOf(e.timing);
  return out;
}

/**
 * The schema's path: zod validates and copies, and on failure names every problem. It is the
 * reference `parseExchange` must agree with (exchange.test.ts compares the two).
 */
export function parseExchangeBySchema(value: unknown, source = "exchange"): Exchange {
  const result = exchangeSchema.safeParse(value);
  if (!result.success)
    throw new ExchangeError("invalid-exchange", describeIssues(result.error, source));
  return buildExchange(result.data);
}

/**
 * Validates a parsed JSON value as an exchange. `source` names it in errors (a file path).
 * A value of the plain shape a file or the sweep gives is checked by hand (isExchangeShape,
 * several times cheaper than the schema); anything else goes through the schema, which
 * accepts or explains.
 */
export function parseExchange(value: unknown, source = "exchange"): Exchange {
  if (isExchangeShape(value)) return buildExchange(value);
  return parseExchangeBySchema(value, source);
}

/** Parses exchange text (a file's contents). */
export function parseExchangeText(text: string, source = "exchange"): Exchange {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ExchangeError("invalid-json", `${source} is not JSON: ${(error as Error).message}`);
  }
  return parseExchange(value, source);
}

/** The first value of a header (names compared in lower case). */
export function headerValue(headers: HeaderPairs, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const pair of headers) if (pair[0] === lower) return pair[1];
  return undefined;
}
