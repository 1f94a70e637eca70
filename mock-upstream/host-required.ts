/**
 * HTTP/1.1 requires a Host header: "A server MUST respond with a 400 (Bad Request) status code
 * to any HTTP/1.1 request message that lacks a Host header field". Node answers such a request
 * itself with an empty 400 the listener never sees (`requireHostHeader`); the mock turns that
 * off and answers it here, with a body, and records it when it is traffic, so a gateway that
 * drops Host is seen. HTTP/1.0 has no Host requirement: such a request is served, the control
 * API's too (a browser always sends Host, so a request without one is no DNS rebinding).
 * @see https://www.rfc-editor.org/rfc/rfc9112#section-3.2
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorDecision } from "./decision.ts";
import type { RawRequest } from "./record.ts";
import { planReplyNow } from "./reply-engine.ts";
import { type Arrival, judgeRequest, recordTraffic, type TrafficState } from "./traffic.ts";
import type { WireReply } from "./wire-plan.ts";

const MESSAGE =
  "An HTTP/1.1 request must carry a Host header (RFC 9112 section 3.2); this one has none.";

/** An HTTP/1.1 request without Host (names are matched without building Node's header map). */
export function lacksRequiredHost(incoming: IncomingMessage): boolean {
  if (incoming.httpVersionMinor !== 1 || incoming.httpVersionMajor !== 1) return false;
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    // Clients send it first and spelled one of two ways: no lower-casing on the request path.
    if (name === "Host" || name === "host") return false;
    if (name.length === 4 && name.toLowerCase() === "host") return false;
  }
  return true;
}

/** Record a traffic request without its required Host, answered 400 `missing-host`. */
export function answerMissingHost(
  raw: RawRequest,
  arrival: Arrival,
  state: TrafficState,
): WireReply | undefined {
  const judged = judgeRequest(raw, arrival, state);
  const decision = errorDecision(400, "missing-host", MESSAGE);
  const planned = planReplyNow(decision.spec, judged.ctx);
  return planned && recordTraffic(judged, decision, planned);
}

/** The control API's answer to an HTTP/1.1 request without Host: a JSON 400. */
export function refuseMissingHost(outgoing: ServerResponse): void {
  const body = JSON.stringify({ error: MESSAGE });
  outgoing.writeHead(400, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    connection: "close",
  });
  outgoing.end(body);
}
