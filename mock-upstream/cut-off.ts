/**
 * A request Node cut off before its body ended: past the server's `requestTimeout` Node
 * answers `408 Request Timeout` itself and closes the connection. The mock still records the
 * request, with the bytes that had arrived and the status the client actually got, not the
 * 400 the partial body would have earned.
 */
import type { Socket } from "node:net";
import type { RawRequest } from "./record.ts";
import { type Arrival, judgeRequest, recordTraffic, type TrafficState } from "./traffic.ts";
import type { WireReply } from "./wire-plan.ts";

/** What Node writes for a request timeout, status line to the end of the head. */
const REQUEST_TIMEOUT = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n";

const TIMED_OUT: WireReply = {
  status: 408,
  headers: [["Connection", "close"]],
  frames: [],
  headersDelayMs: 0,
  ending: "complete",
  transfer: "content-length",
  declaredLength: 0,
};

/**
 * A `clientError` handler doing what Node does without one (a 408 for a timeout, a 400 for
 * anything else, then closing), and remembering which sockets timed out so their requests
 * are recorded as 408.
 */
export function onClientError(cutOff: WeakSet<Socket>) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    const timedOut = error.code === "ERR_HTTP_REQUEST_TIMEOUT";
    if (timedOut) cutOff.add(socket);
    if (socket.writable && socket.bytesWritten === 0) {
      socket.write(
        timedOut ? REQUEST_TIMEOUT : "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n",
      );
    }
    socket.destroy(error);
  };
}

/** Record a request whose connection Node timed out: 408, `reason: "request-timeout"`. */
export function recordCutOff(raw: RawRequest, arrival: Arrival, state: TrafficState): void {
  const judged = judgeRequest(raw, arrival, state);
  const decision = {
    spec: { status: 408 },
    reply: { status: 408, staged: false, reason: "request-timeout" },
  };
  recordTraffic(judged, decision, TIMED_OUT, true);
}
