/**
 * Capture files written before the wire vocabulary (`gatecheck-exchange/1`: the query apart
 * from the path, header names in the case they came in, the reply's bytes frame by frame, each
 * frame with its own encoding) read into today's exchange, so a capture made then still
 * replays. Nothing is lost: the frames' bytes joined are the body, their sizes the frames.
 */
import { z } from "zod";
import { DIALECTS } from "../../dialects/dialect.ts";
import { bytesOf } from "../../dialects/wire/bytes.ts";
import { lowerCasePairs } from "../../dialects/wire/headers.ts";
import { CAPTURE_FORMAT, END_KINDS, type Exchange } from "./exchange.ts";

export const LEGACY_CAPTURE_FORMAT = "gatecheck-exchange/1";

const Millis = z.number().finite().nonnegative();
const Bytes1 = z.strictObject({ data: z.string(), encoding: z.enum(["utf8", "base64"]) });
const Pairs = z.array(z.tuple([z.string(), z.string()]));

export const LegacyExchange = z
  .strictObject({
    format: z.literal(LEGACY_CAPTURE_FORMAT),
    id: z.string().min(1),
    startedAt: z.iso.datetime(),
    upstream: z.url(),
    request: z.strictObject({
      method: z.string().min(1),
      path: z.string().startsWith("/"),
      query: z.string(),
      headers: Pairs,
      body: Bytes1,
      nonce: z.string().optional(),
      model: z.string().optional(),
      dialect: z.enum(DIALECTS).optional(),
    }),
    response: z.strictObject({
      status: z.number().int().min(100).max(599),
      statusText: z.string().optional(),
      headers: Pairs,
      at: Millis,
      synthesized: z.boolean().optional(),
    }),
    frames: z.array(Bytes1.extend({ at: Millis })),
    end: z.strictObject({ kind: z.enum(END_KINDS), at: Millis, error: z.string().optional() }),
  })
  .superRefine((exchange, ctx) => {
    let previous = exchange.response.at;
    exchange.frames.forEach((frame, index) => {
      if (frame.at < previous)
        ctx.addIssue({
          code: "custom",
          path: ["frames", index, "at"],
          message: `expected frame times not to go back (${frame.at} < ${previous})`,
        });
      previous = frame.at;
    });
  });

export function fromLegacyCapture(old: z.infer<typeof LegacyExchange>): Exchange {
  const { request, response } = old;
  const frames = old.frames.map((f) => Buffer.from(f.data, f.encoding));
  const exchange: Exchange = {
    format: CAPTURE_FORMAT,
    id: old.id,
    startedAt: old.startedAt,
    upstream: old.upstream,
    request: {
      method: request.method,
      path: request.query === "" ? request.path : `${request.path}?${request.query}`,
      headers: lowerCasePairs(request.headers),
      body: request.body,
    },
    reply: {
      status: response.status,
      headers: lowerCasePairs(response.headers),
      body: bytesOf(Buffer.concat(frames)),
      headersAtMs: response.at,
      frames: old.frames.map((f, i) => ({ atMs: f.at, bytes: frames[i]?.length ?? 0 })),
    },
    end: { kind: old.end.kind, atMs: old.end.at },
  };
  if (response.statusText !== undefined) exchange.reply.statusText = response.statusText;
  if (response.synthesized !== undefined) exchange.reply.synthesized = response.synthesized;
  if (old.end.error !== undefined) exchange.end.error = old.end.error;
  if (request.nonce !== undefined) exchange.nonce = request.nonce;
  if (request.model !== undefined) exchange.model = request.model;
  if (request.dialect !== undefined) exchange.dialect = request.dialect;
  return exchange;
}
