/**
 * Replay: serve a recorded exchange back with its bytes, its frame boundaries and its timings
 * (optionally scaled: 0.5 is twice as fast, 0 is as fast as possible, boundaries kept).
 *
 * Two outputs of one plan:
 * - `replayPlan`: status, headers, frames with the delay before each, and how it ends. Its
 *   shape fits the mock's wire writer (`WireReply` in ../wire-plan.ts), which writes one HTTP
 *   chunk per frame and can reset the real socket.
 * - `replayResponse`: a web `Response` whose body stream yields one chunk per frame at the
 *   recorded times; a recorded reset becomes a stream error, which the server turns into a
 *   dropped connection.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { type Exchange, replyFrames } from "./exchange.ts";
import { endToEndHeaders } from "./hop-by-hop.ts";
import type { IncomingRequestInfo } from "./incoming.ts";
import { loadCaptureFile } from "./replay-file.ts";
import { type MatchStrategy, ReplayMatcher } from "./replay-match.ts";

export interface ReplayOptions {
  /** Multiplies every recorded delay (default 1). */
  timeScale?: number;
}

export interface ReplayFrame {
  bytes: Buffer;
  /** Milliseconds to wait before this write. */
  delayMs: number;
}

export interface ReplayPlan {
  status: number;
  headers: [string, string][];
  frames: ReplayFrame[];
  /** Milliseconds before the status line and headers go out. */
  headersDelayMs: number;
  /** `reset`: the upstream failed mid-body; `close`: the recording stops short (client left). */
  ending: "complete" | "reset" | "close";
  /** Milliseconds from the last frame to the recorded end (when a reset struck). */
  endDelayMs: number;
  transfer: "chunked" | "content-length";
}

export function replayPlan(exchange: Exchange, options: ReplayOptions = {}): ReplayPlan {
  const scale = timeScaleOf(options);
  const { reply } = exchange;
  let previous = reply.headersAtMs;
  const frames = replyFrames(reply).map((frame) => {
    const delayMs = Math.max(0, frame.atMs - previous) * scale;
    previous = frame.atMs;
    return { bytes: frame.bytes, delayMs };
  });
  const headers = endToEndHeaders(reply.headers);
  const hasLength = headers.some(([name]) => name === "content-length");
  const ending =
    exchange.end.kind === "reset"
      ? "reset"
      : exchange.end.kind === "client-cancelled"
        ? "close"
        : "complete";
  return {
    status: reply.status,
    headers,
    frames,
    headersDelayMs: reply.headersAtMs * scale,
    ending,
    endDelayMs: Math.max(0, exchange.end.atMs - previous) * scale,
    transfer: hasLength ? "content-length" : "chunked",
  };
}

const MIN_FLUSH_MS = 10;

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export async function replayResponse(
  exchange: Exchange,
  options: ReplayOptions = {},
): Promise<Response> {
  const plan = replayPlan(exchange, options);
  if (plan.headersDelayMs > 0) await sleep(plan.headersDelayMs);
  const headers = new Headers();
  for (const [name, value] of plan.headers) {
    try {
      headers.append(name, value);
    } catch {
      // Not valid for the Fetch API; the plan (wire writer path) still carries it.
    }
  }
  if (NULL_BODY_STATUSES.has(plan.status) || plan.status < 200) {
    return new Response(null, { status: Math.max(200, plan.status), headers });
  }
  return new Response(framesStream(plan), { status: plan.status, headers });
}

/** One chunk per frame, each released at its recorded offset from the first read. */
function framesStream(plan: ReplayPlan): ReadableStream<Uint8Array> {
  let index = 0;
  let start: number | undefined;
  let elapsedPlan = 0;
  const abort = new AbortController();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        start ??= performance.now();
        const frame = plan.frames[index];
        if (frame) {
          elapsedPlan += frame.delayMs;
          const wait = start + elapsedPlan - performance.now();
          if (wait > 0) {
            try {
              await sleep(wait, undefined, { signal: abort.signal });
            } catch {
              return; // cancelled while waiting
            }
          }
          index += 1;
          controller.enqueue(new Uint8Array(frame.bytes));
          return;
        }
        if (plan.ending === "complete") {
          controller.close();
          return;
        }
        // Let the last frame leave the server before the connection drops: a stream error
        // makes the server destroy the socket, discarding anything still unwritten.
        try {
          await sleep(Math.max(MIN_FLUSH_MS, plan.endDelayMs), undefined, { signal: abort.signal });
        } catch {
          return;
        }
        controller.error(new Error(`replayed upstream ${plan.ending} mid-body`));
      },
      cancel() {
        abort.abort();
      },
    },
    { highWaterMark: 0 },
  );
}

function timeScaleOf(options: ReplayOptions): number {
  const scale = options.timeScale ?? 1;
  if (!Number.isFinite(scale) || scale < 0) {
    throw new RangeError(`timeScale: expected a finite number >= 0, got ${scale}`);
  }
  return scale;
}

export interface Replay {
  file: string;
  exchanges: readonly Exchange[];
  match(incoming: IncomingRequestInfo): Exchange | undefined;
}

export async function loadReplay(
  file: string,
  options: { match?: MatchStrategy } = {},
): Promise<Replay> {
  const exchanges = await loadCaptureFile(file);
  const matcher = new ReplayMatcher(exchanges, options.match);
  return { file, exchanges, match: (incoming) => matcher.match(incoming) };
}

/** A handler for the mock: the matching exchange replayed, or a 404 saying nothing matched. */
export function createReplayHandler(
  replay: Replay,
  options: ReplayOptions = {},
): (incoming: IncomingRequestInfo) => Promise<Response> {
  timeScaleOf(options);
  return async (incoming) => {
    const exchange = replay.match(incoming);
    if (exchange) return replayResponse(exchange, options);
    const message = `replay ${replay.file}: no recorded exchange matches ${incoming.method} ${incoming.path}`;
    return Response.json(
      { error: { type: "gatecheck_replay_miss", message } },
      { status: 404, headers: { "x-gatecheck-replay": "miss" } },
    );
  };
}
