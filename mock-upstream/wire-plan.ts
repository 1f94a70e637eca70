/**
 * The wire plan: a reply as exact bytes cut into writes, each with the delay before it, and
 * how the connection ends. Every reply the mock sends becomes one of these first (staged,
 * default, error, persona, fault), so one writer puts all of them on the socket. A replay of
 * a recorded stream is a wire plan too: `{ status, headers, frames }` with the recorded
 * frame boundaries and delays.
 */
import { constants, createGzip } from "node:zlib";
import type { ChunkPlanSpec, CutSpec } from "./staged-reply-spec.ts";

export interface WireFrame {
  bytes: Buffer;
  /** Milliseconds to wait before this write. */
  delayMs: number;
  /** Written to the socket as is, outside HTTP chunked framing (a malformed chunk). */
  raw?: boolean;
}

/**
 * `complete`: end the response properly. `close`: end the socket cleanly mid-body (no
 * terminating chunk, or fewer bytes than content-length). `reset`: TCP RST. `hang`: keep
 * the connection open, never finish.
 */
export type WireEnding = "complete" | "close" | "reset" | "hang";

export interface WireReply {
  status: number;
  headers: [string, string][];
  frames: WireFrame[];
  /** Milliseconds before the status line and headers go out. */
  headersDelayMs: number;
  ending: WireEnding;
  /** content-length sends the body's full length even when the ending cuts it short. */
  transfer: "chunked" | "content-length";
  /** The body length a content-length header announces (the full body, even when cut short). */
  declaredLength?: number;
  /** Before any byte of the response: reset the socket, or hang (never answer). */
  before?: "reset" | "hang";
  /**
   * This reply's own request id header (request-id.ts), sent after `headers`. Kept apart so
   * a cached plan's headers stay one shared list while every reply gets its own id.
   */
  requestId?: readonly [string, string];
}

/** A plan's headers as they go out: its own, then its request id. */
export function sentHeaders(reply: WireReply): readonly (readonly [string, string])[] {
  return reply.requestId ? [...reply.headers, reply.requestId] : reply.headers;
}

/** Byte offsets for cut specs, resolved against the whole body. */
export function resolveCuts(body: Buffer, cuts: readonly CutSpec[]): number[] {
  const offsets = cuts.map((cut) => {
    if (typeof cut === "number") return cut;
    return cut.inside === "utf8-char"
      ? insideUtf8Char(body, cut.nth)
      : insideDataLine(body, cut.nth);
  });
  return [...new Set(offsets.filter((o) => o > 0 && o < body.length))].sort((a, b) => a - b);
}

/** After the lead byte of the nth multi-byte character: the character is split. */
function insideUtf8Char(body: Buffer, nth: number): number {
  let seen = 0;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i] ?? 0;
    if (byte >= 0xc0) {
      seen += 1;
      if (seen === nth) return i + 1;
    }
  }
  return -1;
}

/** The middle of the nth `data:` line (counting from its `d`). */
function insideDataLine(body: Buffer, nth: number): number {
  let seen = 0;
  let from = 0;
  for (;;) {
    const at = body.indexOf("data:", from);
    if (at < 0) return -1;
    from = at + 5;
    if (at !== 0 && body[at - 1] !== 0x0a && body[at - 1] !== 0x0d) continue;
    seen += 1;
    if (seen !== nth) continue;
    let end = body.indexOf(0x0a, at);
    if (end < 0) end = body.length;
    return at + Math.max(1, Math.floor((end - at) / 2));
  }
}

export function splitAt(body: Buffer, offsets: readonly number[]): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (const o of offsets) {
    out.push(body.subarray(start, o));
    start = o;
  }
  out.push(body.subarray(start));
  return out.filter((b) => b.length > 0);
}

/**
 * Cut a body given as units (events, or one unit for a plain body) into writes. `event`
 * writes one unit per write; `whole` writes everything at once.
 */
export function cutUnits(units: readonly Buffer[], plan: ChunkPlanSpec): Buffer[] {
  if (plan === "event") return units.filter((u) => u.length > 0);
  const whole = units.length === 1 ? (units[0] as Buffer) : Buffer.concat(units);
  if (plan === "whole") return whole.length ? [whole] : [];
  if ("every" in plan) {
    const offsets: number[] = [];
    for (let o = plan.every; o < whole.length; o += plan.every) offsets.push(o);
    return splitAt(whole, offsets);
  }
  return splitAt(whole, resolveCuts(whole, plan.at));
}

/** Keep only the first `limit` bytes of the frames (the rest is never sent). */
export function truncateFrames(frames: readonly WireFrame[], limit: number): WireFrame[] {
  const out: WireFrame[] = [];
  let left = limit;
  for (const frame of frames) {
    if (left <= 0) break;
    const bytes = frame.bytes.length > left ? frame.bytes.subarray(0, left) : frame.bytes;
    out.push({ ...frame, bytes });
    left -= bytes.length;
  }
  return out;
}

/**
 * Gzip frame by frame with a sync flush after each, so a compressed stream still arrives
 * in its planned writes and each write decompresses to its frame.
 */
export async function gzipFrames(frames: readonly WireFrame[]): Promise<WireFrame[]> {
  const gzip = createGzip();
  const pending: Buffer[] = [];
  gzip.on("data", (chunk: Buffer) => pending.push(chunk));
  const take = () => Buffer.concat(pending.splice(0, pending.length));
  const out: WireFrame[] = [];
  for (const frame of frames) {
    gzip.write(frame.bytes);
    await new Promise<void>((resolve) => gzip.flush(constants.Z_SYNC_FLUSH, () => resolve()));
    out.push({ ...frame, bytes: take() });
  }
  await new Promise<void>((resolve) => {
    gzip.once("end", resolve);
    gzip.end();
  });
  const trailer = take();
  const last = out.at(-1);
  if (last) last.bytes = Buffer.concat([last.bytes, trailer]);
  else out.push({ bytes: trailer, delayMs: 0 });
  return out;
}

export function bodyLength(frames: readonly WireFrame[]): number {
  return frames.reduce((n, f) => n + f.bytes.length, 0);
}
