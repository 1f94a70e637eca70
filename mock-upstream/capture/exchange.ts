/**
 * The capture file format: JSONL, one exchange per line, written when the exchange ends.
 * An exchange is one request forwarded to a live upstream and the response as it arrived:
 * status, headers, and every frame (one read from the upstream socket) with its arrival time
 * in milliseconds since the request started. Frames keep the exact bytes (UTF-8 text when the
 * frame is valid UTF-8 on its own, base64 otherwise, e.g. a character split across frames or
 * a gzip body), so a replay can put the same bytes on the wire with the same boundaries.
 *
 * The request side is redacted (credential headers, query keys, body secrets), like the mock's
 * records. The response side is kept byte-exact; only credential-named response headers are
 * redacted.
 */
import { isUtf8 } from "node:buffer";
import { z } from "zod";
import { DIALECTS } from "../../dialects/dialect.ts";

export const EXCHANGE_FORMAT = "gatecheck-exchange/1";

const Encoding = z.enum(["utf8", "base64"]);
const HeaderPairs = z.array(z.tuple([z.string(), z.string()]));
const Millis = z.number().finite().nonnegative();

export const EncodedBytes = z.strictObject({ data: z.string(), encoding: Encoding });
export type EncodedBytes = z.infer<typeof EncodedBytes>;

export const Frame = EncodedBytes.extend({
  /** Milliseconds since the request started when this read arrived. */
  at: Millis,
});
export type Frame = z.infer<typeof Frame>;

export const CapturedRequest = z.strictObject({
  method: z.string().min(1),
  path: z.string().startsWith("/"),
  /** Without `?`, credential parameters redacted. */
  query: z.string(),
  /** As received (order and case kept), credential values redacted. */
  headers: HeaderPairs,
  body: EncodedBytes,
  /** Found in the raw body before redaction: replay matches on these. */
  nonce: z.string().optional(),
  model: z.string().optional(),
  dialect: z.enum(DIALECTS).optional(),
});
export type CapturedRequest = z.infer<typeof CapturedRequest>;

export const CapturedResponse = z.strictObject({
  status: z.number().int().min(100).max(599),
  statusText: z.string().optional(),
  /** As the upstream sent them (raw order and case), hop-by-hop ones included. */
  headers: HeaderPairs,
  /** Milliseconds since the request started when the status line and headers arrived. */
  at: Millis,
  /** True when no upstream answered and this is the 502 the recorder gave the client. */
  synthesized: z.boolean().optional(),
});
export type CapturedResponse = z.infer<typeof CapturedResponse>;

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
  at: Millis,
  error: z.string().optional(),
});

export const Exchange = z
  .strictObject({
    format: z.literal(EXCHANGE_FORMAT),
    id: z.string().min(1),
    /** ISO time the request arrived. */
    startedAt: z.iso.datetime(),
    /** The upstream base URL the request was forwarded to. */
    upstream: z.url(),
    request: CapturedRequest,
    response: CapturedResponse,
    frames: z.array(Frame),
    end: ExchangeEnd,
  })
  .superRefine((exchange, ctx) => {
    let previous = exchange.response.at;
    exchange.frames.forEach((frame, index) => {
      if (frame.at < previous) {
        ctx.addIssue({
          code: "custom",
          path: ["frames", index, "at"],
          message: `expected frame times not to go back (${frame.at} < ${previous})`,
        });
      }
      previous = frame.at;
    });
  });
export type Exchange = z.infer<typeof Exchange>;

export function encodeBytes(bytes: Uint8Array): EncodedBytes {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return isUtf8(buffer)
    ? { data: buffer.toString("utf8"), encoding: "utf8" }
    : { data: buffer.toString("base64"), encoding: "base64" };
}

export function decodeBytes(encoded: EncodedBytes): Buffer {
  return Buffer.from(encoded.data, encoded.encoding);
}
