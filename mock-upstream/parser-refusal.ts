/**
 * Requests Node's HTTP parser refuses: headers over 16 KB, a NUL or an obs-fold in a header,
 * Content-Length with Transfer-Encoding, two Content-Lengths, an unknown method, bytes that
 * are not HTTP, a chunk size that is not hex. Node answers them itself (`clientError`) and
 * the request listener never sees them, or sees a body that just stops; a gateway that sends
 * one would vanish from the records. Here each is recorded like any request, from what
 * arrived (`err.rawPacket`, the socket read the parser failed on), redacted like any record,
 * with the parser's code and reason in the reply, and answered with the status Node gives it
 * (431 for headers too large, 413 for chunk extensions too large, else 400), with a body.
 *
 * - Refused before the request's head was complete: no request exists. The record is made
 *   from the packet (its request line, header lines and what follows them), `reason:
 *   "http-parse-error"`, and the reply goes out once its line is in the record file.
 * - Refused in the body (a bad chunk size): the request was handed to the listener and its
 *   body is being read. Its reader is told the body ended, so the listener records it with the body bytes
 *   decoded so far followed by the bytes the parser refused, `reason: "body-framing-error"`,
 *   and answers as above.
 * @see https://nodejs.org/docs/latest-v20.x/api/http.html#event-clienterror
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { CONTROL_PREFIX } from "./control-api.ts";
import { errorDecision } from "./decision.ts";
import type { RawRequest } from "./record.ts";
import { planReplyNow } from "./reply-engine.ts";
import { type Arrival, arrive, judgeRequest, recordTraffic, type TrafficState } from "./traffic.ts";
import { sentHeaders, type WireReply } from "./wire-plan.ts";

/** What `clientError` passes for a parser error (Node sets these on `HPE_*` errors). */
export interface ParserError extends NodeJS.ErrnoException {
  reason?: string;
  rawPacket?: Buffer;
  bytesParsed?: number;
}

/** Why a socket's request went wrong outside the listener's view. */
export type SocketTrouble =
  | { kind: "timeout" }
  | { kind: "refused"; error: ParserError; socket: Socket };

/** What Node writes for a request timeout, status line to the end of the head. */
const REQUEST_TIMEOUT = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n";

/** The status Node answers a parser error with (node/lib/_http_server.js, socketOnError). */
function refusalStatus(code: string | undefined): number {
  if (code === "HPE_HEADER_OVERFLOW") return 431;
  if (code === "HPE_CHUNK_EXTENSIONS_OVERFLOW") return 413;
  return 400;
}

function refusalMessage(error: ParserError): string {
  return `The HTTP parser refused the request: ${error.reason ?? error.message} (${error.code}).`;
}

/** A wire plan as the bytes of a response that closes its connection. */
function responseBytes(wire: WireReply): Buffer {
  const body = Buffer.concat(wire.frames.filter((f) => !f.raw).map((f) => f.bytes));
  let head = `HTTP/1.1 ${wire.status} ${STATUS_CODES[wire.status] ?? ""}\r\n`;
  for (const [name, value] of sentHeaders(wire)) {
    const lower = name.toLowerCase();
    if (lower !== "content-length" && lower !== "connection") head += `${name}: ${value}\r\n`;
  }
  head += `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

function sendAndClose(socket: Socket, bytes: Buffer): void {
  if (socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(bytes, () => socket.destroy());
}

/** Record a refused request with the reply it gets, and send that reply after its line. */
function recordRefusal(
  raw: RawRequest,
  arrival: Arrival,
  state: TrafficState,
  error: ParserError,
  reason: string,
  socket: Socket,
): void {
  const judged = judgeRequest(raw, arrival, state);
  const decision = errorDecision(refusalStatus(error.code), reason, refusalMessage(error));
  const planned = planReplyNow(decision.spec, judged.ctx);
  if (!planned) {
    socket.destroy();
    return;
  }
  const wire = recordTraffic(judged, decision, planned);
  state.recorder.afterRecorded(sendAndClose, socket, responseBytes(wire));
}

/**
 * The request in a packet the parser refused before its head was complete, read leniently:
 * the first line's method and target, header lines split at their first colon (a folded
 * line continues the header before it), and whatever follows the blank line as the body. A
 * packet that does not open with a request line is kept whole as the body of `- /`.
 */
export function packetRequest(packet: Buffer): RawRequest {
  const text = packet.toString("latin1");
  const blank = text.indexOf("\r\n\r\n");
  const head = blank < 0 ? text : text.slice(0, blank);
  const [requestLine = "", ...lines] = head.split("\r\n");
  const [method = "", target = "", version = ""] = requestLine.split(" ");
  // Not even a request line (a TLS hello, other bytes): every byte is kept as the body.
  if (!target.startsWith("/") || !version.startsWith("HTTP/")) {
    return {
      method: "-",
      path: "/",
      query: "",
      headers: [],
      body: packet,
      bodyBytes: packet.length,
      bodyTruncated: false,
    };
  }
  const headers: [string, string][] = [];
  for (const line of lines) {
    const last = headers[headers.length - 1];
    if (last && (line.startsWith(" ") || line.startsWith("\t"))) {
      last[1] += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(":");
    headers.push(colon < 0 ? [line, ""] : [line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  const body = blank < 0 ? Buffer.alloc(0) : packet.subarray(blank + 4);
  const q = target.indexOf("?");
  return {
    method,
    path: q < 0 ? target : target.slice(0, q),
    query: q < 0 ? "" : target.slice(q + 1),
    headers,
    body,
    bodyBytes: body.length,
    bodyTruncated: false,
  };
}

/**
 * A request whose body the parser refused, as the listener read it: the body decoded so far,
 * then the bytes from where the parser stopped.
 */
export function recordFramingError(
  raw: RawRequest,
  arrival: Arrival,
  state: TrafficState,
  trouble: Extract<SocketTrouble, { kind: "refused" }>,
): void {
  const { error, socket } = trouble;
  const refused = error.rawPacket?.subarray(error.bytesParsed ?? 0) ?? Buffer.alloc(0);
  const body = raw.bodyTruncated ? raw.body : Buffer.concat([raw.body, refused]);
  const withRest: RawRequest = {
    ...raw,
    body,
    bodyBytes: raw.bodyBytes + refused.length,
  };
  recordRefusal(withRest, arrival, state, error, "body-framing-error", socket);
}

/** The request whose body the mock's listener is reading, given the socket's pending response. */
function bodyBeingRead(res: ServerResponse): IncomingMessage | undefined {
  const req = res.req;
  if (!req || req.complete || req.destroyed) return undefined;
  // The mock's own reader listens for the body; the control API (Hono) reads it otherwise.
  if (req.url?.startsWith(CONTROL_PREFIX) || req.listenerCount("data") === 0) return undefined;
  return req;
}

/**
 * The server's `clientError` handler. A request timeout is answered 408 and marked, so the
 * listener records it (cut-off.ts). A parser error is recorded and answered as the file's
 * comment says. Any other socket error (a reset) ends the connection, with Node's 400 when
 * nothing was written yet.
 */
export function onClientError(state: TrafficState, traffic: boolean) {
  return (error: ParserError, socket: Socket): void => {
    // `_httpMessage` is the response Node attached to the socket (set by `assignSocket`, read
    // by `on-finished` and others for a decade; `res.req` is documented). Looking it up here,
    // on an error, costs the request path nothing.
    if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
      state.cutOff.set(socket, { kind: "timeout" });
      if (socket.writable && socket.bytesWritten === 0) socket.write(REQUEST_TIMEOUT);
      socket.destroy(error);
      return;
    }
    if (error.code?.startsWith("HPE_") === true && error.rawPacket !== undefined) {
      const pending = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
      if (!pending) {
        // No request of this connection is being answered: the refused one is the next.
        recordRefusal(
          packetRequest(error.rawPacket),
          arrive(state),
          state,
          error,
          "http-parse-error",
          socket,
        );
        return;
      }
      const reading = traffic ? bodyBeingRead(pending) : undefined;
      if (reading) {
        // The reader's end hands the request to the listener, which records it. Only its
        // listeners are told: ending the stream itself would make Node destroy the socket
        // (an incomplete request that ends is aborted) before the reply is written.
        state.cutOff.set(socket, { kind: "refused", error, socket });
        reading.emit("end");
        return;
      }
    }
    if (socket.writable && socket.bytesWritten === 0) {
      const status = refusalStatus(error.code);
      const body = JSON.stringify({ error: `gatecheck mock: ${refusalMessage(error)}` });
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}
