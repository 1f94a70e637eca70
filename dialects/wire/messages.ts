/**
 * A request and a reply as they crossed the wire, the shape every gatecheck file holds them
 * in: the mock's records, capture files, stored attempts and exchange files.
 */
import { z } from "zod";
import { type Bytes, byteLength, bytesSchema } from "./bytes.ts";
import { type HeaderPairs, headerPairsSchema } from "./headers.ts";

export interface WireRequest {
  method: string;
  /** The path with its query string (`/v1beta/models/x:generateContent?alt=sse`). */
  path: string;
  headers: HeaderPairs;
  body: Bytes;
}

/** When one read of a streamed body arrived, and how many bytes it carried. */
export interface WireFrame {
  /** Milliseconds since the request started. */
  atMs: number;
  bytes: number;
}

export interface WireReply {
  status: number;
  headers: HeaderPairs;
  /** Every byte of the body, frames joined (a gzip body stays gzip). */
  body: Bytes;
  /** Milliseconds since the request started when the status line and headers arrived. */
  headersAtMs?: number;
  /** The body's reads in order, where the recorder kept them (capture files). */
  frames?: WireFrame[];
}

const millis = z.number().finite().nonnegative();

/** The request's own fields (a reader may swap one for a shorthand of it). */
export const wireRequestShape = {
  method: z.string().min(1),
  path: z.string().startsWith("/"),
  headers: headerPairsSchema,
  body: bytesSchema,
};

export const wireRequestSchema = z.strictObject(wireRequestShape);

export const wireFrameSchema = z.strictObject({ atMs: millis, bytes: z.number().int().min(0) });

/** The reply's own fields: a record's reply adds to them (extendedReplySchema). */
export const wireReplyShape = {
  status: z.number().int().min(100).max(599),
  headers: headerPairsSchema,
  body: bytesSchema,
  headersAtMs: millis.optional(),
  frames: z.array(wireFrameSchema).optional(),
};

/** Frames that add up to the body and never go back in time. */
export function checkFrames(
  reply: Pick<WireReply, "body" | "headersAtMs" | "frames">,
  ctx: z.RefinementCtx,
): void {
  const frames = reply.frames;
  if (!frames) return;
  let previous = reply.headersAtMs ?? 0;
  let total = 0;
  frames.forEach((frame, index) => {
    if (frame.atMs < previous)
      ctx.addIssue({
        code: "custom",
        path: ["frames", index, "atMs"],
        message: `expected frame times not to go back (${frame.atMs} < ${previous})`,
      });
    previous = frame.atMs;
    total += frame.bytes;
  });
  const length = byteLength(reply.body);
  if (total !== length)
    ctx.addIssue({
      code: "custom",
      path: ["frames"],
      message: `expected the frames to add up to the body's ${length} bytes, got ${total}`,
    });
}

export const wireReplySchema = z.strictObject(wireReplyShape).superRefine(checkFrames);

/** A schema of a reply with more fields (a mock record's reply), holding the same rules. */
export function extendedReplySchema<T extends z.core.$ZodLooseShape>(more: T) {
  return z
    .strictObject({ ...wireReplyShape, ...more })
    .superRefine((reply, ctx) => checkFrames(reply as unknown as WireReply, ctx));
}
