/**
 * zod schemas for a canonical reply staged upstream (`canonical.ts` `CanonicalReply`, without
 * `dialect`: the mock renders it in whichever backend dialect the request arrives in). Probe
 * files and the mock's staged replies (`{"canonical": ...}`) are both validated against
 * these, strictly, so a misspelled part type, key or stop reason is an error naming its JSON
 * path, not a silent empty reply.
 */
import { z } from "zod";
import type { CanonicalReply, Part } from "./canonical.ts";
import { STOP_REASONS } from "./canonical.ts";

const cacheMarker = z.strictObject({
  type: z.string(),
  ttl: z.string().optional(),
  raw: z.unknown(),
});

const mediaSource = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("base64"), mediaType: z.string().optional(), data: z.string() }),
  z.strictObject({ kind: z.literal("url"), url: z.string(), mediaType: z.string().optional() }),
  z.strictObject({ kind: z.literal("file-id"), fileId: z.string() }),
  z.strictObject({ kind: z.literal("text"), mediaType: z.string().optional(), data: z.string() }),
]);

export const partSchema: z.ZodType<Part> = z.lazy(() =>
  z.discriminatedUnion("type", [
    z.strictObject({
      type: z.literal("text"),
      text: z.string(),
      cache: cacheMarker.optional(),
      extras: z.record(z.string(), z.unknown()).optional(),
    }),
    z.strictObject({
      type: z.literal("image"),
      source: mediaSource,
      detail: z.string().optional(),
      cache: cacheMarker.optional(),
      extras: z.record(z.string(), z.unknown()).optional(),
    }),
    z.strictObject({
      type: z.literal("document"),
      source: mediaSource,
      title: z.string().optional(),
      cache: cacheMarker.optional(),
      extras: z.record(z.string(), z.unknown()).optional(),
    }),
    z.strictObject({
      type: z.literal("audio"),
      source: mediaSource,
      format: z.string().optional(),
      extras: z.record(z.string(), z.unknown()).optional(),
    }),
    z.strictObject({
      type: z.literal("tool-call"),
      id: z.string(),
      name: z.string(),
      arguments: z.string(),
      signature: z.string().optional(),
      cache: cacheMarker.optional(),
      extras: z.record(z.string(), z.unknown()).optional(),
    }),
    z.strictObject({
      type: z.literal("tool-result"),
      callId: z.string(),
      content: z.array(partSchema),
      isError: z.boolean().optional(),
      name: z.string().optional(),
      cache: cacheMarker.optional(),
      extras: z.record(z.string(), z.unknown()).optional(),
    }),
    z.strictObject({
      type: z.literal("thinking"),
      text: z.string(),
      signature: z.string().optional(),
      redacted: z.boolean().optional(),
      extras: z.record(z.string(), z.unknown()).optional(),
    }),
    z.strictObject({ type: z.literal("reasoning"), text: z.string() }),
    z.strictObject({
      type: z.literal("refusal"),
      text: z.string(),
      extras: z.record(z.string(), z.unknown()).optional(),
    }),
    z.strictObject({ type: z.literal("unknown"), raw: z.unknown() }),
  ]),
);

const usageSchema = z.strictObject({
  inputTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative().optional(),
  cacheReadTokens: z.number().int().nonnegative().optional(),
  cacheWriteTokens: z.number().int().nonnegative().optional(),
  reasoningTokens: z.number().int().nonnegative().optional(),
  totalTokens: z.number().int().nonnegative().optional(),
});

/** A staged reply: the canonical reply minus `dialect` and minus `stream` (the plan shapes streams). */
export type StagedReply = Omit<CanonicalReply, "dialect" | "stream">;

export const stagedReplySchema = z.strictObject({
  id: z.string().optional(),
  model: z.string().optional(),
  parts: z.array(partSchema),
  stopReason: z.enum(STOP_REASONS).optional(),
  rawStopReason: z.string().optional(),
  stopSequence: z.string().optional(),
  usage: usageSchema.optional(),
  extras: z.record(z.string(), z.unknown()).default({}),
}) satisfies z.ZodType<StagedReply, unknown>;
