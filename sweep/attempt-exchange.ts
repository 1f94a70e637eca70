/**
 * One attempt as the sweep stores and judges it: an exchange in the wire vocabulary
 * (dialects/wire/exchange.ts), redacted. The client side is what the sweep sent and got back,
 * the backend side what the mock recorded for the attempt's nonce (dialects/wire/
 * forwarded-side.ts picks the upstream reply and times the arrivals), and the context what the
 * judge needs that the gateway never saw. `rescore` and `export` read the same exchange back.
 */
import type { ClientDialect, Dialect, Mode } from "../dialects/dialect.ts";
import { bytesOf } from "../dialects/wire/bytes.ts";
import type { ExchangeContext, WireExchange } from "../dialects/wire/exchange.ts";
import { exchangeTiming, forwardedSide } from "../dialects/wire/forwarded-side.ts";
import { lowerCasePairs } from "../dialects/wire/headers.ts";
import type { WireRequest } from "../dialects/wire/messages.ts";
import type { MockRecord } from "../mock-upstream/index.ts";

/** What the client got, redacted: status 0 when no response arrived. */
export interface RedactedResponse {
  status: number;
  headers: readonly (readonly [string, string])[];
  body: Uint8Array;
  transportError?: string;
}

export interface AttemptSides {
  client: ClientDialect;
  backend: Dialect;
  mode: Mode;
  /** Redacted, headers in any case. */
  clientRequest: WireRequest;
  /** The mock's records for the attempt's nonce (redacted by the mock), in arrival order. */
  records: readonly MockRecord[];
  response: RedactedResponse;
  context?: ExchangeContext;
  /** How long the client waited for its whole response, in whole milliseconds. */
  totalMs: number;
}

/** Said when the client saw neither a response nor an error message. */
export const UNKNOWN_TRANSPORT_FAILURE = "unknown transport failure";

/** What the client got as an exchange holds it: the response, or why there was none. */
export function clientAnswer(
  response: RedactedResponse,
): Pick<WireExchange, "clientResponse" | "clientError"> {
  const out: Pick<WireExchange, "clientResponse" | "clientError"> = {};
  if (response.status > 0) {
    out.clientResponse = {
      status: response.status,
      headers: lowerCasePairs(response.headers),
      body: bytesOf(response.body),
    };
  }
  if (response.transportError !== undefined || response.status <= 0)
    out.clientError = response.transportError ?? UNKNOWN_TRANSPORT_FAILURE;
  return out;
}

export function attemptExchange(sides: AttemptSides): WireExchange {
  const backend = forwardedSide(sides.records);
  const request = sides.clientRequest;
  const exchange: WireExchange = {
    route: { client: sides.client, backend: sides.backend },
    mode: sides.mode,
    clientRequest: { ...request, headers: lowerCasePairs(request.headers) },
    forwarded: backend.forwarded,
  };
  if (backend.upstreamReply) exchange.upstreamReply = backend.upstreamReply;
  Object.assign(exchange, clientAnswer(sides.response));
  const context: ExchangeContext = { ...sides.context };
  if (backend.rejection) context.strictProvider = backend.rejection;
  if (Object.keys(context).length > 0) exchange.context = context;
  const timing = exchangeTiming(backend.arrivals, sides.totalMs);
  if (timing) exchange.timing = timing;
  return exchange;
}
