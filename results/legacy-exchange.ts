/**
 * Attempts stored before schema version 7 read into the wire vocabulary: the one adapter from
 * the old shapes, run once by the migration (`gatecheck_stored_exchange` in SQL) when a
 * writer opens an old database. Before version 7 an attempt kept its sides apart: the client
 * request with its body parsed, the mock's records whole (`rawBody` + `bodyEncoding`, the
 * reply inside each), the client response as base64 (`bodyBase64`), `upstream_reply` always
 * null, and the fallback targets and statuses as `x-gatecheck-fallback-*` request headers.
 * The exchange built here is what the sweep of today stores for the same traffic, so rescoring
 * an old database judges what the live sweep judged then (scripts/bench/verdict-snapshot.ts).
 */
import {
  type ClientDialect,
  type Dialect,
  isClientDialect,
  type Mode,
} from "../dialects/dialect.ts";
import { isRecord } from "../dialects/json.ts";
import { dialectOfPath } from "../dialects/routes.ts";
import { bytesOf, textBytes } from "../dialects/wire/bytes.ts";
import { ANY_NON_2XX, type ExchangeContext, type WireExchange } from "../dialects/wire/exchange.ts";
import {
  exchangeTiming,
  forwardedSide,
  type RecordedForward,
} from "../dialects/wire/forwarded-side.ts";
import { headerValue, lowerCasePairs } from "../dialects/wire/headers.ts";
import type { WireRequest } from "../dialects/wire/messages.ts";
import type { Db } from "./schema.ts";

type Pairs = [string, string][];

interface OldClientRequest {
  method?: string;
  path: string;
  headers?: Pairs;
  body: unknown;
}

interface OldRecord {
  method?: string;
  path: string;
  query?: string;
  headers?: Pairs;
  rawBody?: string;
  bodyEncoding?: "utf8" | "base64";
  receivedAt?: string;
  reply?: {
    status: number;
    headers?: Pairs;
    body?: string;
    bodyEncoding?: "utf8" | "base64";
    persona?: string;
    personaRule?: string;
  };
}

interface OldResponse {
  status: number;
  headers?: Pairs;
  bodyBase64?: string;
  transportError?: string;
}

/** The headers where the sweep used to tell the judge what the gateway was configured with. */
const FALLBACK_TARGETS_HEADER = "x-gatecheck-fallback-targets";
const FALLBACK_ON_HEADER = "x-gatecheck-fallback-on";
/** The header where a failure probe stated its caller's deadline. */
const DEADLINE_HEADER = "x-gatecheck-deadline-ms";

function clientRequestOf(value: unknown): WireRequest {
  if (!isRecord(value) || typeof value.path !== "string")
    return { method: "POST", path: "/", headers: [], body: textBytes("") };
  const old = value as unknown as OldClientRequest;
  const body = typeof old.body === "string" ? old.body : JSON.stringify(old.body);
  return {
    method: old.method ?? "POST",
    path: old.path,
    headers: lowerCasePairs(old.headers ?? []),
    body: textBytes(body),
  };
}

function forwardOf(old: OldRecord): RecordedForward {
  const forward: RecordedForward = {
    request: {
      method: old.method ?? "POST",
      path: old.query ? `${old.path}?${old.query}` : old.path,
      headers: lowerCasePairs(old.headers ?? []),
      body: { data: old.rawBody ?? "", encoding: old.bodyEncoding ?? "utf8" },
    },
  };
  if (old.receivedAt !== undefined) forward.receivedAt = old.receivedAt;
  const reply = old.reply;
  if (reply) {
    forward.reply = { status: reply.status, headers: lowerCasePairs(reply.headers ?? []) };
    if (reply.persona !== undefined) forward.reply.persona = reply.persona;
    if (reply.personaRule !== undefined) forward.reply.personaRule = reply.personaRule;
    if (reply.body !== undefined)
      forward.reply.body = { data: reply.body, encoding: reply.bodyEncoding ?? "utf8" };
  }
  return forward;
}

/** The judging context the old request headers stated, as the judge read it then. */
function contextOf(headers: Pairs): ExchangeContext | undefined {
  const context: ExchangeContext = {};
  const deadline = Number(headerValue(headers, DEADLINE_HEADER));
  if (Number.isFinite(deadline) && deadline > 0) context.deadlineMs = deadline;
  const fallback = fallbackOf(headers);
  if (fallback) context.fallback = fallback;
  return Object.keys(context).length > 0 ? context : undefined;
}

function fallbackOf(headers: Pairs): ExchangeContext["fallback"] {
  const targets = headerValue(headers, FALLBACK_TARGETS_HEADER)?.trim();
  const stated = headerValue(headers, FALLBACK_ON_HEADER)?.trim();
  if (targets === undefined && stated === undefined) return undefined;
  const fallback: NonNullable<ExchangeContext["fallback"]> = {};
  if (targets) fallback.targets = targets.split(/\s+/);
  if (stated === ANY_NON_2XX) fallback.on = ANY_NON_2XX;
  else {
    const codes = (stated ?? "")
      .split(/[\s,]+/)
      .map(Number)
      .filter((n) => Number.isInteger(n) && n >= 100 && n <= 599);
    if (codes.length > 0) fallback.on = codes;
  }
  return fallback;
}

/** The route an old attempt was judged on: a control attempt's is the native one its path names. */
function routeOf(
  cell: [ClientDialect, Dialect, Mode, string] | undefined,
  request: WireRequest,
  forwarded: readonly WireRequest[],
): { route: { client: ClientDialect; backend: Dialect }; mode: Mode } {
  const byPath = dialectOfPath(request.path.split("?")[0] ?? "")?.dialect;
  if (!cell) {
    const client = isClientDialect(byPath) ? byPath : "openai-chat";
    const backend = dialectOfPath(forwarded[0]?.path ?? "")?.dialect ?? client;
    return { route: { client, backend }, mode: "non-stream" };
  }
  const [client, backend, mode, phase] = cell;
  if (phase === "control" && isClientDialect(byPath))
    return { route: { client: byPath, backend: byPath }, mode };
  return { route: { client, backend }, mode };
}

/**
 * An old attempt's columns as the exchange the sweep stores now. `cell` is
 * `[client_dialect, backend_dialect, mode, phase]` of a judgement that points at it.
 */
export function legacyExchange(
  clientRequest: unknown,
  forwarded: unknown,
  clientResponse: unknown,
  timings: unknown,
  cell: [ClientDialect, Dialect, Mode, string] | undefined,
): WireExchange {
  const request = clientRequestOf(clientRequest);
  const records = Array.isArray(forwarded) ? (forwarded as OldRecord[]).map(forwardOf) : [];
  const backend = forwardedSide(records);
  const exchange: WireExchange = {
    ...routeOf(cell, request, backend.forwarded),
    clientRequest: request,
    forwarded: backend.forwarded,
  };
  if (backend.upstreamReply) exchange.upstreamReply = backend.upstreamReply;
  if (isRecord(clientResponse)) {
    const old = clientResponse as unknown as OldResponse;
    if (old.status > 0)
      exchange.clientResponse = {
        status: old.status,
        headers: lowerCasePairs(old.headers ?? []),
        body: bytesOf(Buffer.from(old.bodyBase64 ?? "", "base64")),
      };
    if (old.transportError !== undefined || old.status <= 0)
      exchange.clientError = old.transportError ?? "unknown transport failure";
  }
  const context: ExchangeContext = { ...contextOf(request.headers) };
  if (backend.rejection) context.strictProvider = backend.rejection;
  if (Object.keys(context).length > 0) exchange.context = context;
  const totalMs =
    isRecord(timings) && typeof timings.totalMs === "number" ? timings.totalMs : undefined;
  const timing = exchangeTiming(backend.arrivals, totalMs);
  if (timing) exchange.timing = timing;
  return exchange;
}

function parsed(text: unknown): unknown {
  return typeof text === "string" ? JSON.parse(text) : null;
}

/** `gatecheck_stored_exchange(client_request, forwarded, client_response, timings, cell)`. */
export function registerStoredExchange(db: Db): void {
  db.function(
    "gatecheck_stored_exchange",
    { deterministic: true },
    (
      clientRequest: unknown,
      forwarded: unknown,
      clientResponse: unknown,
      timings: unknown,
      cell: unknown,
    ) =>
      JSON.stringify(
        legacyExchange(
          parsed(clientRequest),
          parsed(forwarded),
          parsed(clientResponse),
          parsed(timings),
          parsed(cell) as [ClientDialect, Dialect, Mode, string] | undefined,
        ),
      ),
  );
}
