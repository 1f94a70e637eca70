/**
 * The reply bytes a record carries, computed once per reply body rather than once per
 * request. A staged "always" stream of 2,000 events (236 KB) used to be joined, checked for
 * UTF-8, decoded and JSON-escaped for every request, which cost more than writing it to the
 * socket. Rendered bodies are cached (reply-engine.ts, dialect-replies.ts) and reach the
 * wire plan as the same Buffer objects, so the joined text and its escaped JSON are kept
 * per list of frame buffers, keyed weakly on the first one and checked buffer by buffer.
 */
import { isUtf8 } from "node:buffer";
import { redactedBodyBytes } from "../dialects/redacted-body-bytes.ts";
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

/** How a staged reply's body is redacted for its record: through its content coding. */
export interface RedactReply {
  contentEncoding: string | undefined;
}

interface CacheEntry {
  buffers: readonly Buffer[];
  redacted: boolean;
  bytes: ReplyBytes;
}

const cache = new WeakMap<Buffer, CacheEntry>();

function sameBuffers(a: readonly Buffer[], b: readonly Buffer[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function compute(buffers: readonly Buffer[], redact: RedactReply | undefined): ReplyBytes {
  const joined = buffers.length === 1 ? (buffers[0] as Buffer) : Buffer.concat(buffers);
  const kept = redact ? redactedBodyBytes(joined, redact.contentEncoding) : joined;
  const utf8 = isUtf8(kept);
  return new ReplyBytes(kept.toString(utf8 ? "utf8" : "base64"), utf8 ? "utf8" : "base64");
}

/**
 * The body bytes of a wire plan's frames (raw frames, written outside HTTP framing, are
 * not body), as the record keeps them. Buffers are never written to once rendered, so
 * identity means same bytes. A staged reply's body is what its author wrote, so it is
 * redacted as a request's body is (`redact`), once per staged body; a default reply is made
 * of the mock's own text and the request's redacted facts (its model), and is kept as sent.
 */
export function replyBytes(frames: readonly WireFrame[], redact?: RedactReply): ReplyBytes {
  const buffers: Buffer[] = [];
  for (const frame of frames) if (!frame.raw) buffers.push(frame.bytes);
  const first = buffers[0];
  if (!first) return compute(buffers, redact);
  const redacted = redact !== undefined;
  const hit = cache.get(first);
  if (hit && hit.redacted === redacted && sameBuffers(hit.buffers, buffers)) return hit.bytes;
  const bytes = compute(buffers, redact);
  cache.set(first, { buffers, redacted, bytes });
  return bytes;
}
