/**
 * A recorded exchange as a staged reply of the mock's control API (`POST /__gatecheck/replies`,
 * format in ../staged-reply-spec.ts): its frames with the recorded gaps as `delayMs`, its
 * headers, and its ending. Staged this way a recording answers whatever the stage matches
 * (a nonce, a model, a path), like any other staged reply.
 */
import type { Exchange } from "./exchange.ts";
import { type ReplayOptions, replayPlan } from "./replay.ts";

export interface RecordedReplySpec {
  status: number;
  headers: [string, string][];
  body: { frames: { data: string; encoding: "base64"; delayMs: number }[] };
  wire: {
    headersDelayMs: number;
    end: "complete" | "reset" | "close";
    /** The whole recording: without it a cut ending would cut the body in half. */
    endAfterBytes: number;
    transfer: "chunked" | "content-length";
  };
}

export function exchangeToReplySpec(
  exchange: Exchange,
  options: ReplayOptions = {},
): RecordedReplySpec {
  const plan = replayPlan(exchange, options);
  return {
    status: plan.status,
    headers: plan.headers,
    // base64 always: the bytes stay exact whatever they are.
    body: {
      frames: plan.frames.map((f) => ({
        data: f.bytes.toString("base64"),
        encoding: "base64",
        delayMs: f.delayMs,
      })),
    },
    wire: {
      headersDelayMs: plan.headersDelayMs,
      end: plan.ending,
      endAfterBytes: plan.frames.reduce((n, f) => n + f.bytes.length, 0),
      transfer: plan.transfer,
    },
  };
}
