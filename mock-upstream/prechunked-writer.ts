/**
 * The fast path of writeToNode (wire-writer.ts) for a stream whose frames all go out at
 * once (a staged SSE reply without delays): the frames already framed as HTTP chunks, made
 * once per list of frame buffers, and handed to the socket as one write between the headers
 * and the terminating chunk, where the plain path makes one `res.write` per frame (three
 * buffers each in Node: size line, bytes, CRLF), 600 buffers for a 200-event stream, that
 * Node then gathers into one `writev`. The bytes on the wire are the same, each frame still
 * its own chunk; prechunked-writer.test.ts holds the two paths to it.
 */
import type { ServerResponse } from "node:http";
import type { WireFrame, WireReply } from "./wire-plan.ts";

interface Prechunked {
  buffers: readonly Buffer[];
  chunked: Buffer;
}

/** Keyed weakly on the first frame's buffer, checked buffer by buffer (reply-bytes.ts). */
const cache = new WeakMap<Buffer, Prechunked>();

const CRLF = Buffer.from("\r\n");

/**
 * Whether the plan is one the fast path writes (every frame now, chunked, complete) and
 * Node will frame the response as chunks: a body allowed (not HEAD, not 1xx, 204 or 304),
 * chunks by default (not HTTP/1.0), and no framing header of the plan's own.
 */
function applies(
  res: ServerResponse,
  reply: WireReply,
  headers: readonly (readonly [string, string])[],
): boolean {
  const status = reply.status;
  if (
    reply.ending !== "complete" ||
    reply.transfer !== "chunked" ||
    reply.before !== undefined ||
    reply.headersDelayMs > 0 ||
    reply.frames.length < 2 ||
    res.req?.method === "HEAD" ||
    status < 200 ||
    status === 204 ||
    status === 304 ||
    !res.useChunkedEncodingByDefault
  ) {
    return false;
  }
  for (const frame of reply.frames) if (frame.raw || frame.delayMs > 0) return false;
  for (const [name] of headers) {
    const lower = name.toLowerCase();
    if (lower === "content-length" || lower === "transfer-encoding") return false;
  }
  return true;
}

function sameBuffers(frames: readonly WireFrame[], buffers: readonly Buffer[]): boolean {
  if (frames.length !== buffers.length) return false;
  for (let i = 0; i < frames.length; i++) if (frames[i]?.bytes !== buffers[i]) return false;
  return true;
}

/** The frames as chunks: size in hex, CRLF, bytes, CRLF; an empty frame is no chunk. */
function prechunk(frames: readonly WireFrame[]): Buffer {
  const parts: Buffer[] = [];
  for (const { bytes } of frames) {
    if (bytes.length === 0) continue;
    parts.push(Buffer.from(`${bytes.length.toString(16)}\r\n`, "latin1"), bytes, CRLF);
  }
  return Buffer.concat(parts);
}

function chunkedBytes(frames: readonly WireFrame[]): Buffer {
  const first = (frames[0] as WireFrame).bytes;
  const hit = cache.get(first);
  if (hit && sameBuffers(frames, hit.buffers)) return hit.chunked;
  const chunked = prechunk(frames);
  cache.set(first, { buffers: frames.map((f) => f.bytes), chunked });
  return chunked;
}

/**
 * Write the plan this way when it applies: headers, the chunks in one write, the
 * terminating chunk, corked into one system call. False when the plain path must write it;
 * nothing has been written then. `headers` are the plan's as sent (sentHeaders).
 */
export function writePrechunked(
  res: ServerResponse,
  reply: WireReply,
  headers: readonly (readonly [string, string])[],
): boolean {
  const socket = res.socket;
  if (!socket || res.destroyed || !applies(res, reply, headers)) return false;
  res.statusCode = reply.status;
  for (const [name, value] of headers) res.appendHeader(name, value);
  socket.cork();
  res.flushHeaders();
  if (res.chunkedEncoding) socket.write(chunkedBytes(reply.frames));
  else for (const frame of reply.frames) res.write(frame.bytes); // not reached: see applies()
  res.end();
  socket.uncork();
  return true;
}
