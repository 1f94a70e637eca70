/**
 * The exchange format: one probe's traffic as `gatecheck check` and the sweep hand it to
 * the lens. What the client sent, what the backend received (one record per forwarded
 * request), and optionally what the upstream replied and what the client got back. The
 * file's shape (schema and fast check) is in `exchange-shape.ts`.
 */
import type { z } from "zod";
import type { ClientDialect, Dialect, Mode } from "../dialects/dialect.ts";
import {
  type ExchangeInput,
  exchangeSchema,
  type headersSchema,
  isExchangeShape,
} from "./exchange-shape.ts";

export { type ExchangeInput, exchangeSchema, isExchangeShape };

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

/**
 * Whether a pair's name is lower-case already. toLowerCase hands back the same string when
 * nothing changes, so this allocates nothing (cheaper than a char-code loop, by the clock in a micro benchmark).
 */
function namedInLowerCase(pair: [string, string]): boolean {
  return pair[0].toLowerCase() === pair[0];
}

function pairs(headers: HeadersShape | undefined): HeaderPairs {
  const out: HeaderPairs = [];
  if (headers === undefined) return out;
  if (Array.isArray(headers)) {
    // Recorded pairs are lower-case already (the mock and the sweep write them so): shared
    // as they are rather than copied pair by pair (docs/lens.md, Round 4).
    if (headers.every(namedInLowerCase)) return headers;
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

/** The last body serialized, by identity: a credential search reads a body's text per needle. */
let lastBody: unknown;
let lastText = "";

function bodyText(body: unknown): string {
  if (body !== lastBody || lastText === "") {
    lastText = JSON.stringify(body);
    lastBody = body;
  }
  return lastText;
}

/**
 * `rawBody` of a request whose body the file gave as JSON: an enumerable own accessor, so
 * JSON.stringify and spreading see the text, which is serialized only when read (only the
 * credential search in forwarded bodies reads it). One getter and one descriptor shared by
 * every such request: an object literal with its own getter was built in dictionary mode
 * (slow to build and to read `body`, `headers` and `path` from): 2.3–4.1 µs to build where
 * a shared accessor took 1.5–1.7 µs, by the clock in a micro benchmark (docs/lens.md, Round 4).
 */
function rawBodyGetter(this: { body: unknown }): string {
  return bodyText(this.body);
}

const RAW_BODY: PropertyDescriptor = { get: rawBodyGetter, enumerable: true, configurable: true };

function jsonBodyRequest(
  method: string,
  path: string,
  headers: HeaderPairs,
  body: unknown,
): WireRequest {
  const request = { method, path, headers, body };
  Object.defineProperty(request, "rawBody", RAW_BODY);
  return request as WireRequest;
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

/** parseExchange for a value JSON.parse made (the hand check can trust it has plain keys). */
function parseJsonExchange(value: unknown, source: string): Exchange {
  if (isExchangeShape(value, true)) return buildExchange(value);
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
  return parseJsonExchange(value, source);
}

/** The first value of a header (names compared in lower case). */
export function headerValue(headers: HeaderPairs, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const pair of headers) if (pair[0] === lower) return pair[1];
  return undefined;
}
