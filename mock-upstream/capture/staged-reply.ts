/**
 * A recorded exchange as a staged reply of the mock's control API (`POST /__gatecheck/replies`,
 * format in ../staged-reply-spec.ts): its frames with the recorded gaps as `delayMs`, its
 * headers, and its ending. Staged this way a recording answers whatever the stage matches
 * (a nonce, a model, a path), like any other staged reply.
 */
import { type Exchange, pathOnly } from "./exchange.ts";
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

export interface RecordedStage {
  match: { nonce?: string; model?: string; path?: string };
  times: "always";
  sequence: RecordedReplySpec[];
}

/**
 * A whole capture file as staged replies, so the mock's own pipeline (records, personas,
 * staging ranks) serves it. Exchanges are keyed by nonce when they carry one, else by model
 * and path, else by path; each key answers with its exchanges in file order, then from the
 * first again. Staged nonce keys outrank model keys, which outrank path keys.
 */
export function replayStages(
  exchanges: readonly Exchange[],
  options: ReplayOptions = {},
): RecordedStage[] {
  const stages = new Map<string, RecordedStage>();
  for (const exchange of exchanges) {
    const { nonce, model } = exchange;
    const path = pathOnly(exchange.request);
    const match = nonce ? { nonce } : model ? { model, path } : { path };
    const key = JSON.stringify(match);
    const stage = stages.get(key) ?? { match, times: "always" as const, sequence: [] };
    stage.sequence.push(exchangeToReplySpec(exchange, options));
    stages.set(key, stage);
  }
  return [...stages.values()];
}
