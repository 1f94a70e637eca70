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

const lower = (headers: readonly [string, string][]): HeaderPairs =>
  headers.map(([n, v]) => [n.toLowerCase(), v]);

function header(headers: readonly [string, string][], name: string): string | undefined {
  return headers.find(([n]) => n.toLowerCase() === name)?.[1];
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
  const bytes = Buffer.from(reply.body, reply.bodyEncoding === "base64" ? "base64" : "utf8");
  return { status: reply.status, headers: lower(headers), body: bodyText(bytes, headers) };
}

/** Arrival offsets and answers of the forwarded records, when every record has its time. */
function timingOf(sides: WireSides): ExchangeTiming | undefined {
  const times = sides.forwarded.map((r) => (r.receivedAt ? Date.parse(r.receivedAt) : Number.NaN));
  if (times.some((t) => Number.isNaN(t))) {
    return sides.timings ? { forwarded: [], clientTotalMs: sides.timings.totalMs } : undefined;
  }
  const first = Math.min(...times);
  const forwarded = sides.forwarded.map((r, i) => {
    const retryAfter = r.reply?.headers ? header(r.reply.headers, "retry-after") : undefined;
    return {
      atMs: (times[i] ?? first) - first,
      ...(r.reply ? { status: r.reply.status } : {}),
      ...(retryAfter === undefined ? {} : { retryAfter }),
    };
  });
  return sides.timings ? { forwarded, clientTotalMs: sides.timings.totalMs } : { forwarded };
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
    clientRequest: {
      method: clientRequest.method,
      path: clientRequest.path,
      headers: lower(clientRequest.headers),
      body: clientRequest.body,
      rawBody: JSON.stringify(clientRequest.body),
    },
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
