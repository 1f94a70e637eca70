/**
 * The exchange as the lens reads it: the wire vocabulary's exchange (dialects/wire/exchange.ts)
 * with every body turned into what the judges compare. A request body is parsed when it is
 * JSON text and kept as text otherwise; a reply body is its text (a gzip body the headers
 * announce is undone first). One function builds it from any exchange the sweep, `rescore`,
 * `export` and `gatecheck check` hold, so they judge the same thing.
 */
import { gunzipSync } from "node:zlib";
import type { ClientDialect, Dialect, Mode } from "../dialects/dialect.ts";
import { tryParseJson } from "../dialects/json.ts";
import { type Bytes, bytesBuffer } from "../dialects/wire/bytes.ts";
import type { ExchangeContext, ExchangeTiming, WireExchange } from "../dialects/wire/exchange.ts";
import { type HeaderPairs, headerValue } from "../dialects/wire/headers.ts";
import { describeIssues } from "../dialects/wire/issues.ts";
import type { WireReply, WireRequest } from "../dialects/wire/messages.ts";
import { type ExchangeInput, exchangeFileSchema } from "./exchange-shape.ts";

export {
  type ExchangeContext,
  type ExchangeInput,
  type ExchangeTiming,
  type HeaderPairs,
  headerValue,
};

/** A request as the judges read it. */
export interface ExchangeRequest {
  method: string;
  /** The path with its query string, as sent. */
  path: string;
  /** Lower-case names, order and repeats kept. */
  headers: HeaderPairs;
  /** The parsed JSON body, or the body's text when it is not JSON (or not UTF-8). */
  body: unknown;
  /** The body's text (bytes that are not UTF-8 read one character per byte). */
  rawBody: string;
}

/** A reply as the judges read it. */
export interface ExchangeReply {
  status: number;
  headers: HeaderPairs;
  /** The body's text; for a stream, the SSE (or Ollama NDJSON) text. */
  body: string;
}

/**
 * An exchange with its bodies read. A side that was not recorded is absent: a mock record
 * file has no client side (and so no client dialect), a file may leave out `forwarded`.
 */
export interface Exchange {
  route: { client?: ClientDialect; backend: Dialect };
  mode: Mode;
  clientRequest?: ExchangeRequest;
  /** Absent: not recorded. Empty: nothing reached the backend. */
  forwarded?: ExchangeRequest[];
  upstreamReply?: ExchangeReply;
  clientResponse?: ExchangeReply;
  clientError?: string;
  context: ExchangeContext;
  secrets: string[];
  timing?: ExchangeTiming;
}

/** An exchange whose client side was recorded: what the lens's client-side judges read. */
export interface ClientSideExchange extends Exchange {
  route: { client: ClientDialect; backend: Dialect };
  clientRequest: ExchangeRequest;
  forwarded: ExchangeRequest[];
}

export type ExchangeErrorCode = "invalid-json" | "invalid-exchange" | "unreadable-client-request";

export class ExchangeError extends Error {
  constructor(
    readonly code: ExchangeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ExchangeError";
  }
}

/** Bytes as text: UTF-8 text as it is; other bytes one character per byte (latin1). */
function requestText(body: Bytes): string {
  return body.encoding === "utf8" ? body.data : bytesBuffer(body).toString("latin1");
}

function exchangeRequest(request: WireRequest): ExchangeRequest {
  const rawBody = requestText(request.body);
  let body: unknown = rawBody;
  if (request.body.encoding === "utf8") {
    const parsed = tryParseJson(rawBody);
    if (parsed.ok) body = parsed.value;
  }
  return { method: request.method, path: request.path, headers: request.headers, body, rawBody };
}

/**
 * A reply body's text as a client library would see it: gzip is undone when the headers say
 * so and the bytes really are gzip; bytes that claim gzip but are not are read as they are.
 * UTF-8 text cannot be gzip (8b is no first byte of a UTF-8 character), so it stands as is.
 */
export function replyText(body: Bytes, headers: readonly (readonly [string, string])[]): string {
  if (body.encoding === "utf8") return body.data;
  const bytes = bytesBuffer(body);
  const coding = headers.find(([name]) => name.toLowerCase() === "content-encoding")?.[1];
  if (coding?.toLowerCase() === "gzip" && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      return gunzipSync(bytes).toString("utf8");
    } catch {
      return bytes.toString("utf8");
    }
  }
  return bytes.toString("utf8");
}

function exchangeReply(reply: WireReply): ExchangeReply {
  return {
    status: reply.status,
    headers: reply.headers,
    body: replyText(reply.body, reply.headers),
  };
}

/** The lens's exchange from one in the wire vocabulary (already valid: not checked again). */
export function exchangeOfWire(wire: WireExchange, secrets?: readonly string[]): Exchange {
  const out: Exchange = {
    route: wire.route,
    mode: wire.mode,
    context: wire.context ?? {},
    secrets: [...(secrets ?? wire.secrets ?? [])],
  };
  if (wire.clientRequest) out.clientRequest = exchangeRequest(wire.clientRequest);
  if (wire.forwarded) out.forwarded = wire.forwarded.map(exchangeRequest);
  if (wire.upstreamReply) out.upstreamReply = exchangeReply(wire.upstreamReply);
  if (wire.clientResponse) out.clientResponse = exchangeReply(wire.clientResponse);
  if (wire.clientError !== undefined) out.clientError = wire.clientError;
  if (wire.timing) out.timing = wire.timing;
  return out;
}

/**
 * A value read as an exchange file (the shorthand allowed), in the vocabulary's strict form.
 * `source` names it in errors (a file path).
 */
export function parseWireExchange(value: unknown, source = "exchange"): WireExchange {
  const result = exchangeFileSchema.safeParse(value);
  if (!result.success) {
    throw new ExchangeError(
      "invalid-exchange",
      describeIssues(result.error, `${source} is not a valid exchange`),
      { cause: result.error },
    );
  }
  return result.data as WireExchange;
}

/** Validates a parsed JSON value as an exchange and reads its bodies. */
export function parseExchange(value: unknown, source = "exchange"): Exchange {
  return exchangeOfWire(parseWireExchange(value, source));
}

/** The JSON value of exchange text, or an error naming the source. */
export function exchangeJson(text: string, source = "exchange"): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ExchangeError("invalid-json", `${source} is not JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Parses exchange text (a file's contents). */
export function parseExchangeText(text: string, source = "exchange"): Exchange {
  return parseExchange(exchangeJson(text, source), source);
}

/** Every side a client-side judge reads is there (throws otherwise: a caller's mistake). */
export function hasClientSide(exchange: Exchange): exchange is ClientSideExchange {
  return exchange.route.client !== undefined && exchange.clientRequest !== undefined;
}
