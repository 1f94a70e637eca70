/**
 * From what the sweep saw on the wire (its own client request and response, the mock's
 * records) to the lens's Exchange. The same function serves a live attempt and `rescore`
 * of stored bytes, so a rescore judges exactly what the live run judged.
 */
import { gunzipSync } from "node:zlib";
import type { ClientDialect, Dialect, Mode } from "../dialects/dialect.ts";
import type {
  Exchange,
  ExchangeTiming,
  HeaderPairs,
  WireReply,
  WireRequest,
} from "../probes/exchange.ts";

/** The client side of an attempt as stored: already redacted. */
export interface StoredClientRequest {
  method: string;
  path: string;
  headers: HeaderPairs;
  body: unknown;
}

export interface StoredResponse {
  status: number;
  headers: HeaderPairs;
  /** The body bytes, base64 (exact: may be gzip, may be cut mid-character). */
  bodyBase64: string;
  transportError?: string;
}

/** The fields of a mock record the lens needs (MockRecord has more; see mock-upstream/record.ts). */
export interface ForwardedRecord {
  method: string;
  path: string;
  query: string;
  headers: [string, string][];
  rawBody: string;
  bodyEncoding: "utf8" | "base64";
  json?: unknown;
  /** ISO arrival time at the mock (retry spacing for the failure judges). */
  receivedAt?: string;
  reply?: {
    status: number;
    headers?: [string, string][];
    body?: string;
    bodyEncoding?: "utf8" | "base64";
    /** The strict provider the listener played, and the rule that rejected the request. */
    persona?: string;
    personaRule?: string;
  };
}

export interface WireSides {
  client: ClientDialect;
  backend: Dialect;
  mode: Mode;
  clientRequest: StoredClientRequest;
  forwarded: readonly ForwardedRecord[];
  clientResponse?: StoredResponse;
  secrets: readonly string[];
  /** The client's own clock for the attempt (how long it waited for the whole response). */
  timings?: { totalMs: number };
}

/** Header pairs with lower-case names; pairs already lower-case are shared, not copied. */
function lower(headers: readonly [string, string][]): HeaderPairs {
  let out: HeaderPairs | undefined;
  for (let i = 0; i < headers.length; i++) {
    const pair = headers[i] as [string, string];
    const name = pair[0].toLowerCase();
    if (out) out.push(name === pair[0] ? pair : [name, pair[1]]);
    else if (name !== pair[0]) {
      out = headers.slice(0, i);
      out.push([name, pair[1]]);
    }
  }
  return out ?? (headers as HeaderPairs);
}

/** A header's value by its lower-case `name` (ASCII: a name of another length never matches). */
function header(headers: readonly [string, string][], name: string): string | undefined {
  for (const [n, value] of headers) {
    if (n.length === name.length && n.toLowerCase() === name) return value;
  }
  return undefined;
}

/**
 * Body text as a client library would see it: gzip is undone when the response says so and
 * the bytes really are gzip; bytes that claim gzip but are not stay as they are.
 */
export function bodyText(bytes: Buffer, headers: readonly [string, string][]): string {
  const encoding = header(headers, "content-encoding")?.toLowerCase();
  if (encoding === "gzip" && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      return gunzipSync(bytes).toString("utf8");
    } catch {
      return bytes.toString("utf8");
    }
  }
  return bytes.toString("utf8");
}

function forwardedRequest(record: ForwardedRecord): WireRequest {
  const rawBody =
    record.bodyEncoding === "base64"
      ? Buffer.from(record.rawBody, "base64").toString("latin1")
      : record.rawBody;
  return {
    method: record.method,
    path: record.query ? `${record.path}?${record.query}` : record.path,
    headers: lower(record.headers),
    body: record.json ?? rawBody,
    rawBody,
  };
}

function upstreamReply(record: ForwardedRecord | undefined): WireReply | undefined {
  const reply = record?.reply;
  if (!reply || reply.body === undefined) return undefined;
  const headers = reply.headers ?? [];
  return {
    status: reply.status,
    headers: lower(headers),
    body: replyText(reply.body, reply.bodyEncoding, headers),
  };
}

/** String.prototype.isWellFormed (Node 20 has it; the project's TypeScript lib predates it). */
const isWellFormed = (text: string): boolean =>
  (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * A stored reply body as text. A UTF-8 body that is well-formed text comes back unchanged
 * from encoding and decoding (and its bytes cannot start with gzip's 1f 8b: 8b is no first
 * byte of a UTF-8 character), so only base64 bodies and ill-formed text take the bytes' way.
 */
function replyText(
  body: string,
  encoding: "utf8" | "base64" | undefined,
  headers: readonly [string, string][],
): string {
  if (encoding !== "base64" && isWellFormed(body)) return body;
  return bodyText(Buffer.from(body, encoding === "base64" ? "base64" : "utf8"), headers);
}

/**
 * Arrival offsets and answers of the forwarded records, when every record has its time. One
 * pass and no spread objects: it runs for every rescored attempt.
 */
function timingOf(sides: WireSides): ExchangeTiming | undefined {
  const records = sides.forwarded;
  const times: number[] = [];
  let first = Number.POSITIVE_INFINITY;
  for (const r of records) {
    const time = r.receivedAt ? Date.parse(r.receivedAt) : Number.NaN;
    if (Number.isNaN(time)) {
      return sides.timings ? { forwarded: [], clientTotalMs: sides.timings.totalMs } : undefined;
    }
    times.push(time);
    if (time < first) first = time;
  }
  const forwarded: ExchangeTiming["forwarded"] = [];
  records.forEach((r, i) => {
    const entry: ExchangeTiming["forwarded"][number] = { atMs: (times[i] as number) - first };
    if (r.reply) entry.status = r.reply.status;
    const retryAfter = r.reply?.headers ? header(r.reply.headers, "retry-after") : undefined;
    if (retryAfter !== undefined) entry.retryAfter = retryAfter;
    forwarded.push(entry);
  });
  return sides.timings ? { forwarded, clientTotalMs: sides.timings.totalMs } : { forwarded };
}

/** The client body's text, serialized when read (the lens reads forwarded bodies' text only). */
function rawBodyOfBody(this: { body: unknown }): string {
  return JSON.stringify(this.body);
}

/** One descriptor for every client request: enumerable, so JSON.stringify and spreads see it. */
const RAW_BODY: PropertyDescriptor = { get: rawBodyOfBody, enumerable: true, configurable: true };

/**
 * The client request as the lens reads it. Its text is a getter in the field's place, one
 * shared accessor: an object literal with its own getter is built in dictionary mode, slow
 * to build and slow for the lens to read `body`, `headers` and `path` from (the same change
 * in probes/exchange.ts, docs/lens.md Round 4).
 */
function clientWireRequest(request: StoredClientRequest): WireRequest {
  const wire = {
    method: request.method,
    path: request.path,
    headers: lower(request.headers),
    body: request.body,
  };
  Object.defineProperty(wire, "rawBody", RAW_BODY);
  return wire as WireRequest;
}

export function exchangeFromWire(sides: WireSides): Exchange {
  const { clientRequest } = sides;
  const forwarded = sides.forwarded.map(forwardedRequest);
  // After retries the client's answer follows the last reply the backend gave.
  const answered = sides.forwarded.findLast((r) => r.json !== undefined) ?? sides.forwarded.at(-1);
  const response = sides.clientResponse;
  const exchange: Exchange = {
    route: { client: sides.client, backend: sides.backend },
    mode: sides.mode,
    clientRequest: clientWireRequest(clientRequest),
    forwarded,
    secrets: [...sides.secrets],
  };
  const timing = timingOf(sides);
  if (timing) exchange.timing = timing;
  const upstream = upstreamReply(answered);
  if (upstream) exchange.upstreamReply = upstream;
  if (response && response.status > 0) {
    const bytes = Buffer.from(response.bodyBase64, "base64");
    exchange.clientResponse = {
      status: response.status,
      headers: lower(response.headers),
      body: bodyText(bytes, response.headers),
    };
  }
  return exchange;
}
