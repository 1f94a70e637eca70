/**
 * A stream plan: how a canonical reply is cut into stream events. Users stage plans as
 * JSON, so the plan is a zod schema; every writer reads the same plan and renders it in its
 * own framing. Where a dialect cannot express a plan field (Gemini and Ollama send tool
 * calls whole, so there are no argument fragments to cut or interleave) the writer ignores
 * it; docs/dialects-replies.md lists those cases.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { CanonicalReply, Part } from "./canonical.ts";
import { DialectError } from "./dialect-error.ts";

const count = z.number().int().nonnegative();

export const StreamPlanSchema = z
  .object({
    /** Explicit chunks per text part (text, refusal, reasoning), in order; each list must join to its part's text. */
    textChunks: z.array(z.array(z.string())).optional(),
    /** Cut every text-like part every N characters (code points) when `textChunks` does not cover it. */
    textChunkSize: z.number().int().positive().optional(),
    /** Explicit argument fragments per tool call, in order; each list must join to the call's arguments. */
    toolArgumentChunks: z.array(z.array(z.string())).optional(),
    /** Cut every tool call's arguments every N characters when `toolArgumentChunks` does not cover it. */
    toolArgumentChunkSize: z.number().int().positive().optional(),
    /** Emit the fragments of consecutive tool calls round-robin instead of call after call. */
    interleaveToolCalls: z.boolean().optional(),
    /** Explicit thinking chunks per thinking part, in order (the signature always follows the last). */
    thinkingChunks: z.array(z.array(z.string())).optional(),
    /**
     * Where usage goes. `final` (default): in the dialect's natural place (OpenAI Chat: a last
     * chunk with empty `choices`, as `stream_options.include_usage` does; Anthropic: message_start
     * and message_delta). `with-finish`: on the chunk that carries the finish reason. `omit`: nowhere.
     */
    usage: z.enum(["final", "with-finish", "omit"]).optional(),
    /** Keep-alive pings (Anthropic `event: ping`, `: ping` comments elsewhere) after this many events each. */
    pingsAfter: z.array(count).optional(),
    /** Free SSE comments after this many events each (Ollama's NDJSON has no comments: ignored). */
    comments: z.array(z.object({ after: count, text: z.string() })).optional(),
    /** Pretty-print every event's JSON, so each event's data spans several `data:` lines. */
    multilineData: z.boolean().optional(),
    /** Leave out the terminal event ([DONE], message_stop, response.completed, done:true, the finishReason chunk). */
    omitTerminal: z.boolean().optional(),
    /** After `afterEvents` content events, send an error event in the dialect's shape and end the stream. */
    errorAfter: z
      .object({
        afterEvents: count,
        message: z.string(),
        type: z.string().optional(),
        status: z.number().int().optional(),
      })
      .optional(),
  })
  .strict();

export type StreamPlan = z.infer<typeof StreamPlanSchema>;

/** Validate a plan read from a user's JSON; the error names the path inside it. */
export function parseStreamPlan(value: unknown, source = "stream plan"): StreamPlan {
  const result = StreamPlanSchema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues
    .map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`)
    .join("; ");
  throw new DialectError("invalid-plan", `${source}: ${issues}`);
}

/** Cut a string every `size` code points (never inside a surrogate pair). */
export function cutEvery(text: string, size: number | undefined): string[] {
  if (!size || text.length === 0) return [text];
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

/** The chunks for the n-th part of a kind: explicit ones (checked) or cut by size. */
export function chunksFor(
  text: string,
  explicit: string[][] | undefined,
  index: number,
  size: number | undefined,
  what: string,
): string[] {
  const given = explicit?.[index];
  if (given) {
    if (given.join("") !== text) {
      throw new DialectError(
        "chunks-mismatch",
        `${what} ${index}: chunks join to ${JSON.stringify(given.join(""))}, the reply says ${JSON.stringify(text)}`,
      );
    }
    return given.length ? given : [""];
  }
  return cutEvery(text, size);
}

/** Round-robin merge of several fragment lists, tagged by which list each came from. */
export function interleave<T>(lists: readonly T[][]): { list: number; item: T }[] {
  const out: { list: number; item: T }[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) {
    lists.forEach((l, list) => {
      const item = l[i];
      if (i < l.length) out.push({ list, item: item as T });
    });
  }
  return out;
}

/** Index of each part among the parts of its kind (the n-th text part, the n-th tool call). */
export function kindIndexes(parts: readonly Part[]): number[] {
  const seen = new Map<string, number>();
  return parts.map((p) => {
    const kind = p.type === "refusal" || p.type === "reasoning" ? "text" : p.type;
    const n = seen.get(kind) ?? 0;
    seen.set(kind, n + 1);
    return n;
  });
}

/**
 * A stable id suffix for a reply that has none: a digest of its content, so the same
 * staged reply always renders the same id (writers are pure: no clock, no randomness).
 */
export function replyDigest(reply: CanonicalReply, length = 24): string {
  return createHash("sha256")
    .update(JSON.stringify([reply.parts, reply.stopReason, reply.model]))
    .digest("hex")
    .slice(0, length);
}

/** The `created` timestamp a writer puts on the wire: the reply's own, else a fixed epoch. */
export function createdOf(reply: CanonicalReply): number {
  const created = reply.extras.created ?? reply.extras.created_at;
  return typeof created === "number" ? created : 1_767_225_600;
}

/** Stringify an event body; `multilineData` pretty-prints it so data spans several lines. */
export function eventJson(value: unknown, plan: StreamPlan): string {
  return plan.multilineData ? JSON.stringify(value, null, 2) : JSON.stringify(value);
}
