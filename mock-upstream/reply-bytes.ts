/**
 * The reply bytes a record carries, computed once per reply body rather than once per
 * request. A staged "always" stream of 2,000 events (236 KB) used to be joined, checked for
 * UTF-8, decoded and JSON-escaped for every request, which cost more than writing it to the
 * socket. Rendered bodies are cached (reply-engine.ts, dialect-replies.ts) and reach the
 * wire plan as the same Buffer objects, so the joined text and its escaped JSON are kept
 * per list of frame buffers, keyed weakly on the first one and checked buffer by buffer.
 */
import { isUtf8 } from "node:buffer";
import type { WireFrame } from "./wire-plan.ts";

/**
 * A reply body as a record carries it. Its JSON text is made only when a line is rendered,
 * once per body (a default reply has a fresh id each time, so nothing is shared between its
 * requests; a staged one is shared by all of them).
 */
export class ReplyBytes {
  #jsonText: string | undefined;
  #json: Buffer | undefined;

  constructor(
    readonly body: string,
    readonly bodyEncoding: "utf8" | "base64",
  ) {}

  /** `JSON.stringify(body)`: what the record line carries for `reply.body`. */
  get bodyJsonText(): string {
    this.#jsonText ??= JSON.stringify(this.body);
    return this.#jsonText;
  }

  /** The same, encoded as UTF-8 (a large body is spliced into the file line as these bytes). */
  get bodyJson(): Buffer {
    this.#json ??= Buffer.from(this.bodyJsonText);
    return this.#json;
  }
}

interface CacheEntry {
  buffers: readonly Buffer[];
  bytes: ReplyBytes;
}

const cache = new WeakMap<Buffer, CacheEntry>();

function sameBuffers(a: readonly Buffer[], b: readonly Buffer[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function compute(buffers: readonly Buffer[]): ReplyBytes {
  const joined = buffers.length === 1 ? (buffers[0] as Buffer) : Buffer.concat(buffers);
  const utf8 = isUtf8(joined);
  return new ReplyBytes(joined.toString(utf8 ? "utf8" : "base64"), utf8 ? "utf8" : "base64");
}

/**
 * The body bytes of a wire plan's frames (raw frames, written outside HTTP framing, are
 * not body). Buffers are never written to once rendered, so identity means same bytes.
 */
export function replyBytes(frames: readonly WireFrame[]): ReplyBytes {
  const buffers: Buffer[] = [];
  for (const frame of frames) if (!frame.raw) buffers.push(frame.bytes);
  const first = buffers[0];
  if (!first) return compute(buffers);
  const hit = cache.get(first);
  if (hit && sameBuffers(hit.buffers, buffers)) return hit.bytes;
  const bytes = compute(buffers);
  cache.set(first, { buffers, bytes });
  return bytes;
}
