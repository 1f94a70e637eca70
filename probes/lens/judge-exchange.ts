/**
 * The lens's entry points: read an exchange's four sides with the dialect readers and judge
 * them. `judgeExchange` gives every verdict; `judgeField` answers for one field (the sweep
 * asks once per attempt for its probe's field).
 */
import type { CanonicalReply, CanonicalRequest } from "../../dialects/canonical.ts";
import type { Dialect, Mode } from "../../dialects/dialect.ts";
import { readReply } from "../../dialects/reply.ts";
import { readRequest } from "../../dialects/request.ts";
import {
  type ClientSideExchange,
  type Exchange,
  ExchangeError,
  type ExchangeReply,
  type ExchangeRequest,
  hasClientSide,
} from "../exchange.ts";
import type { Verdict } from "../verdict.ts";
import { depthOver, MAX_JSON_DEPTH } from "./json-depth.ts";
import { judgeBackendSide } from "./judge-backend-side.ts";
import {
  judgeRead,
  judgeReadField,
  type ReadExchange,
  type ReadSide,
  scoredForward,
} from "./judge-read.ts";

export interface JudgeOptions {
  /** Judge only this field (client spelling, `headers.x`, `credentials.place.name`, `path`, or a reply feature). */
  field?: string;
}

function readForward(backend: Dialect, wire: ExchangeRequest): ReadSide<CanonicalRequest> {
  if (typeof wire.body === "string") return { ok: false, error: "body is not JSON" };
  try {
    return { ok: true, value: readRequest(backend, wire.body, { path: wire.path }) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function readSide(dialect: Dialect, wire: ExchangeReply, mode: Mode): ReadSide<CanonicalReply> {
  try {
    // readReply reads the status and the body only (a dialect's framing is known from it).
    const value = readReply(dialect, { status: wire.status, body: wire.body }, mode);
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/**
 * Reads every side. The client request must be there and readable: without it nothing of
 * the client side can be judged (judgeExchange judges an exchange without one by its
 * backend side alone).
 */
/** Every side's text nested deeper than the lens reads, named by its path in the exchange. */
function refuseTooDeep(given: Exchange): void {
  const sides: [string, string | undefined][] = [
    ["clientRequest.body", given.clientRequest?.rawBody],
    ...(given.forwarded ?? []).map((f, i): [string, string] => [`forwarded[${i}].body`, f.rawBody]),
    ["upstreamReply.body", given.upstreamReply?.body],
    ["clientResponse.body", given.clientResponse?.body],
  ];
  for (const [where, text] of sides) {
    const depth = text === undefined ? undefined : depthOver(text);
    if (depth === undefined) continue;
    const code = where === "clientRequest.body" ? "unreadable-client-request" : "invalid-exchange";
    throw new ExchangeError(
      code,
      `${where}: JSON nested ${depth} levels deep, more than the ${MAX_JSON_DEPTH} the lens reads; not judged`,
    );
  }
}

export function readExchange(given: Exchange): ReadExchange {
  refuseTooDeep(given);
  if (!hasClientSide(given)) {
    throw new ExchangeError(
      "unreadable-client-request",
      "clientRequest: not recorded (an exchange without a client side is judged by judgeExchange's backend-side checks only)",
    );
  }
  const forwardedRecorded = given.forwarded !== undefined;
  const exchange: ClientSideExchange = forwardedRecorded ? given : { ...given, forwarded: [] };
  const { client: clientDialect, backend } = exchange.route;
  const request = exchange.clientRequest;
  if (typeof request.body === "string") {
    throw new ExchangeError(
      "unreadable-client-request",
      "clientRequest.body: expected a JSON object, got text that is not JSON",
    );
  }
  let client: CanonicalRequest;
  try {
    client = readRequest(clientDialect, request.body, { path: request.path });
  } catch (error) {
    throw new ExchangeError(
      "unreadable-client-request",
      `clientRequest.body: ${(error as Error).message}`,
    );
  }
  const read: ReadExchange = { exchange, client, forwardedRecorded };
  const wire = scoredForward(exchange);
  if (wire) {
    read.scored = wire;
    read.forwarded = readForward(backend, wire);
  }
  if (exchange.upstreamReply)
    read.upstream = readSide(backend, exchange.upstreamReply, exchange.mode);
  if (exchange.clientResponse)
    read.clientReply = readSide(clientDialect, exchange.clientResponse, exchange.mode);
  return read;
}

/** Every verdict for the exchange, request direction first; or only `options.field`'s. */
export function judgeExchange(exchange: Exchange, options: JudgeOptions = {}): Verdict[] {
  if (!hasClientSide(exchange)) {
    const verdicts = judgeBackendSide(exchange);
    return options.field === undefined
      ? verdicts
      : verdicts.filter((v) => v.field === options.field);
  }
  const read = readExchange(exchange);
  return options.field === undefined
    ? judgeRead(read).verdicts
    : [judgeReadField(read, options.field)];
}

/** The one verdict for `field` (the most severe where several apply). */
export function judgeField(exchange: Exchange, field: string): Verdict {
  return judgeReadField(readExchange(exchange), field);
}
