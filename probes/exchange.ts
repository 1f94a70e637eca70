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

function pairs(headers: z.output<typeof headersSchema>): HeaderPairs {
  if (Array.isArray(headers)) return headers.map(([n, v]) => [n.toLowerCase(), v]);
  const out: HeaderPairs = [];
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value]) out.push([name.toLowerCase(), v]);
  }
  return out;
}

function wireRequest(r: {
  method?: string;
  path: string;
  headers: z.output<typeof headersSchema>;
  body: unknown;
}): WireRequest {
  let body = r.body;
  let rawBody: string;
  if (typeof r.body === "string") {
    rawBody = r.body;
    try {
      body = JSON.parse(r.body);
    } catch {
      body = r.body;
    }
  } else {
    rawBody = JSON.stringify(r.body);
  }
  return { method: r.method ?? "POST", path: r.path, headers: pairs(r.headers), body, rawBody };
}

function wireReply(r: z.output<typeof replySchema>): WireReply {
  return { status: r.status, headers: pairs(r.headers), body: r.body };
}

function timingOf(t: NonNullable<z.output<typeof exchangeSchema>["timing"]>): ExchangeTiming {
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

/** Validates a parsed JSON value as an exchange. `source` names it in errors (a file path). */
export function parseExchange(value: unknown, source = "exchange"): Exchange {
  const result = exchangeSchema.safeParse(value);
  if (!result.success)
    throw new ExchangeError("invalid-exchange", describeIssues(result.error, source));
  const e = result.data;
  const out: Exchange = {
    route: e.route,
    mode: e.mode,
    clientRequest: wireRequest(e.clientRequest),
    forwarded: e.forwarded.map(wireRequest),
    secrets: e.secrets ?? [],
  };
  if (e.upstreamReply) out.upstreamReply = wireReply(e.upstreamReply);
  if (e.clientResponse) out.clientResponse = wireReply(e.clientResponse);
  if (e.timing) out.timing = timingOf(e.timing);
  return out;
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
  return headers.find(([n]) => n === lower)?.[1];
}
