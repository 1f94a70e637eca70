/**
 * The capture file format: JSONL, one exchange per line, written when the exchange ends.
 * An exchange is one request forwarded to a live upstream and the reply as it arrived, both in
 * the wire vocabulary (dialects/wire/messages.ts): the request `{method, path with its query,
 * headers, body}` and the reply `{status, headers, body, headersAtMs, frames}`, where `body`
 * is every byte of the reply (frames joined; a gzip body stays gzip) and `frames` says when
 * each read from the upstream socket arrived and how many bytes it carried, so a replay puts
 * the same bytes on the wire with the same boundaries and gaps. Times are milliseconds since
 * the request started.
 *
 * The request side is redacted (credential headers, query keys, body secrets), like the mock's
 * records. The reply is kept byte-exact; only credential-named reply headers are redacted.
 * Files in the format before the wire vocabulary (`gatecheck-exchange/1`) are read through
 * legacy-capture.ts.
 */
import { z } from "zod";
import { DIALECTS } from "../../dialects/dialect.ts";
import { bytesBuffer } from "../../dialects/wire/bytes.ts";
import {
  checkFrames,
  type WireRequest,
  wireFrameSchema,
  wireReplyShape,
  wireRequestSchema,
} from "../../dialects/wire/messages.ts";

export const CAPTURE_FORMAT = "gatecheck-capture/2";

const Millis = z.number().finite().nonnegative();

/** The reply as captured: the wire reply, its clock facts required, and the status text. */
export const CapturedReply = z
  .strictObject({
    ...wireReplyShape,
    headersAtMs: Millis,
    frames: z.array(wireFrameSchema),
    statusText: z.string().optional(),
    /** True when no upstream answered and this is the 502 (or 499) the recorder gave the client. */
    synthesized: z.boolean().optional(),
  })
  .superRefine(checkFrames);
export type CapturedReply = z.infer<typeof CapturedReply>;

export const END_KINDS = [
  /** The upstream finished the body. */
  "complete",
  /** The upstream connection failed mid-body (reset, premature close). */
  "reset",
  /** The client went away first; the upstream request was aborted. */
  "client-cancelled",
  /** No response at all (refused, DNS, TLS); the client got the synthesized 502. */
  "upstream-unreachable",
] as const;
export type EndKind = (typeof END_KINDS)[number];

export const ExchangeEnd = z.strictObject({
  kind: z.enum(END_KINDS),
  atMs: Millis,
  error: z.string().optional(),
});

export const Exchange = z.strictObject({
  format: z.literal(CAPTURE_FORMAT),
  id: z.string().min(1),
  /** ISO time the request arrived. */
  startedAt: z.iso.datetime(),
  /** The upstream base URL the request was forwarded to. */
  upstream: z.url(),
  request: wireRequestSchema,
  /** Found in the raw body before redaction: replay matches on these. */
  nonce: z.string().optional(),
  model: z.string().optional(),
  dialect: z.enum(DIALECTS).optional(),
  reply: CapturedReply,
  end: ExchangeEnd,
});
export type Exchange = z.infer<typeof Exchange>;

/** The path without its query (what replay matches on). */
export function pathOnly(request: Pick<WireRequest, "path">): string {
  const at = request.path.indexOf("?");
  return at === -1 ? request.path : request.path.slice(0, at);
}

/** The reply's reads, each with its own bytes, in order. */
export function replyFrames(reply: CapturedReply): { atMs: number; bytes: Buffer }[] {
  const body = bytesBuffer(reply.body);
  let offset = 0;
  return reply.frames.map((frame) => {
    const bytes = body.subarray(offset, offset + frame.bytes);
    offset += frame.bytes;
    return { atMs: frame.atMs, bytes };
  });
}
