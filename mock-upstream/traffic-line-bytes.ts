/**
 * The fast path of a traffic record's line: written straight into the recorder's slab as
 * UTF-8, where the plain way (`renderTrafficLine` in traffic-record.ts, then
 * `LineSlab.write`) joins it as text and encodes the text. The texts around the bodies are
 * the plain way's own (`trafficLineTexts`); what differs is the bodies, the bulk of a
 * line: the request body is escaped as a JSON string from the bytes it arrived as
 * (`JSON.stringify` of its text cost about 2.8 µs for the benchmark's 1 KB body, this about
 * 1.6, and the text then had to be flattened and encoded again), and the reply body's JSON
 * is copied from the bytes cached once per reply (reply-bytes.ts). Same bytes as the plain
 * way: traffic-line-bytes.test.ts holds them equal. Measured in docs/mock.md
 * ("Performance").
 */
import type { LineSlab } from "./line-slab.ts";
import type { ReplyBytes } from "./reply-bytes.ts";
import { splicesReplyBody, type TrafficLine, trafficLineTexts } from "./traffic-record.ts";

/**
 * Per byte, what `JSON.stringify` writes for it inside a string: 0 the byte itself, 1
 * `\u00XX`, else `\` and this letter. Only ASCII is escaped; a UTF-8 sequence (valid:
 * record.ts checks) is copied as it is, as `JSON.stringify` keeps the character.
 */
const ESCAPE = new Uint8Array(256);
for (let b = 0; b < 0x20; b++) ESCAPE[b] = 1;
for (const [b, letter] of [
  [0x08, "b"],
  [0x09, "t"],
  [0x0a, "n"],
  [0x0c, "f"],
  [0x0d, "r"],
  [0x22, '"'],
  [0x5c, "\\"],
] as const) {
  ESCAPE[b] = letter.charCodeAt(0);
}
const HEX = Buffer.from("0123456789abcdef");

/** The bytes `jsonStringInto` writes for `bytes` (quotes included). */
export function jsonStringLength(bytes: Uint8Array): number {
  let n = bytes.length + 2;
  for (let i = 0; i < bytes.length; i++) {
    const e = ESCAPE[bytes[i] as number] as number;
    if (e !== 0) n += e === 1 ? 5 : 1;
  }
  return n;
}

/**
 * `JSON.stringify(text)` as UTF-8 into `out` at `at`, where `bytes` is `text` as valid
 * UTF-8; the offset after it. `out` has room (`jsonStringLength`).
 */
export function jsonStringInto(bytes: Uint8Array, out: Uint8Array, at: number): number {
  let o = at;
  out[o++] = 0x22;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    const e = ESCAPE[b] as number;
    if (e === 0) out[o++] = b;
    else if (e === 1) {
      out[o++] = 0x5c;
      out[o++] = 0x75;
      out[o++] = 0x30;
      out[o++] = 0x30;
      out[o++] = HEX[b >> 4] as number;
      out[o++] = HEX[b & 15] as number;
    } else {
      out[o++] = 0x5c;
      out[o++] = e;
    }
  }
  out[o++] = 0x22;
  return o;
}

/** Where a record's line went: `slab[start, bodyAt)`, then `body` when shared, then `slab[bodyAt, end)`. */
export interface SlabLine {
  slab: Buffer;
  start: number;
  bodyAt: number;
  end: number;
  /** The reply body's JSON, shared with every record of the same reply, when spliced. */
  body: Buffer | undefined;
  /** Bytes the record keeps alive on its own account (a shared body counted too). */
  size: number;
}

/** The most bytes the line can take in the slab, cheap to count (no pass over the body). */
function boundOf(texts: readonly string[], line: TrafficLine, reply: ReplyBytes, splice: boolean) {
  let n = 0;
  for (const t of texts) n += t.length * 3;
  const bytes = line.rawBodyBytes;
  n += bytes ? bytes.length * 6 + 2 : line.rawBody.length * 6 + 2;
  return splice ? n : n + reply.bodyJson.length;
}

/** The exact bytes, counted when the bound does not fit what is left of the slab. */
function exactOf(texts: readonly string[], line: TrafficLine, reply: ReplyBytes, splice: boolean) {
  let n = 0;
  for (const t of texts) n += Buffer.byteLength(t);
  const bytes = line.rawBodyBytes;
  n += bytes ? jsonStringLength(bytes) : Buffer.byteLength(JSON.stringify(line.rawBody));
  return splice ? n : n + reply.bodyJson.length;
}

/** Write the record's line into the slab (making room first); where it went. */
export function writeTrafficLine(line: TrafficLine, slab: LineSlab): SlabLine {
  const texts = trafficLineTexts(line);
  const [head, mid, tail] = texts;
  const reply = line.replyBytes;
  const splice = splicesReplyBody(reply);
  if (boundOf(texts, line, reply, splice) > slab.room) {
    slab.reserveBytes(exactOf(texts, line, reply, splice));
  }
  const out = slab.slab;
  const start = slab.used;
  let at = start + out.write(head, start);
  const bytes = line.rawBodyBytes;
  at = bytes ? jsonStringInto(bytes, out, at) : at + out.write(JSON.stringify(line.rawBody), at);
  at += out.write(mid, at);
  // A spliced body stays where it is; the tail follows the text in the slab.
  if (!splice) at += reply.bodyJson.copy(out, at);
  const bodyAt = at;
  at += out.write(tail, at);
  slab.advance(at);
  const body = splice ? reply.bodyJson : undefined;
  const size = at - start + (body ? body.length : 0);
  return { slab: out, start, bodyAt: body ? bodyAt : at, end: at, body, size };
}
