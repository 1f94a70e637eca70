/**
 * A request Node cut off before its body ended: past the server's `requestTimeout` Node
 * answers `408 Request Timeout` (parser-refusal.ts, as Node does) and closes the connection. The mock still records the
 * request, with the bytes that had arrived and the status the client actually got, not the
 * 400 the partial body would have earned.
 */
import type { RawRequest } from "./record.ts";
import { type Arrival, judgeRequest, recordTraffic, type TrafficState } from "./traffic.ts";
import type { WireReply } from "./wire-plan.ts";

const TIMED_OUT: WireReply = {
  status: 408,
  headers: [["Connection", "close"]],
  frames: [],
  headersDelayMs: 0,
  ending: "complete",
  transfer: "content-length",
  declaredLength: 0,
};

/** Record a request whose connection Node timed out: 408, `reason: "request-timeout"`. */
export function recordCutOff(raw: RawRequest, arrival: Arrival, state: TrafficState): void {
  const judged = judgeRequest(raw, arrival, state);
  const decision = {
    spec: { status: 408 },
    reply: { status: 408, staged: false, reason: "request-timeout" },
  };
  recordTraffic(judged, decision, TIMED_OUT, true);
}
