/**
 * The staged reply format: what `POST /__gatecheck/replies` and `stage()` accept. A spec
 * says which requests it answers (`match`), how often (`times`), and with what: one reply
 * or a sequence (503, 503, 200). A reply gives a status, headers, a body in one of several
 * forms, and a wire plan that shapes the bytes (chunking, delays, keep-alives, gzip, how the
 * stream ends). `fault` names a connection-level fault as a shortcut.
 */
import { z } from "zod";
import { stagedReplySchema } from "../dialects/canonical-reply-schema.ts";
import { MAX_DURATION_MS, MAX_DURATION_TEXT } from "./max-duration.ts";

const Bytes = z.strictObject({
  data: z.string(),
  encoding: z.enum(["utf8", "base64"]).default("utf8"),
});

/** One SSE event (one NDJSON line for Ollama); `data` objects are JSON-serialized; a string
 * with line breaks becomes several `data:` lines (the SSE rule for multi-line data); `raw` is
 * written as given, for anything the encoder would not produce (`id:`, `retry:`, bad framing). */
export const SseEventSpec = z.union([
  z.strictObject({ event: z.string().optional(), data: z.union([z.string(), z.json()]) }),
  z.strictObject({ comment: z.string() }),
  z.strictObject({ raw: z.string() }),
]);
export type SseEventSpec = z.infer<typeof SseEventSpec>;

/** A wait in ms, at most what a timer holds (a longer one would fire at once: max-duration.ts). */
const DurationMs = z
  .number()
  .nonnegative()
  .max(MAX_DURATION_MS, `a delay is at most ${MAX_DURATION_TEXT}: a longer timer fires at once`);

/** A frame written as given, after `delayMs`: the entry point for replaying a recording. */
export const FrameSpec = Bytes.extend({ delayMs: DurationMs.optional() });
export type FrameSpec = z.infer<typeof FrameSpec>;

export const BodySpec = z.union([
  z.strictObject({ json: z.json() }),
  z.strictObject({ text: z.string(), contentType: z.string().optional() }),
  z.strictObject({ raw: z.string(), encoding: z.enum(["utf8", "base64"]).default("utf8") }),
  z.strictObject({ sse: z.array(SseEventSpec) }),
  z.strictObject({ ndjson: z.array(z.json()) }),
  z.strictObject({ frames: z.array(FrameSpec) }),
  /**
   * A canonical reply (dialects/canonical.ts, without `dialect`) rendered in the dialect of the
   * request's path, checked as strictly as a probe file's: a misspelled part type or key is
   * refused with its path, not rendered as an empty reply.
   */
  z.strictObject({
    canonical: stagedReplySchema,
    stream: z.boolean().optional(),
    plan: z.unknown().optional(),
  }),
  /** An error body in the dialect's own shape; `shape` picks the variants that break
   * adapters: `string` (`{"error": "..."}`), `html` (a proxy's page), `empty`. */
  z.strictObject({
    error: z.strictObject({
      message: z.string().default(""),
      type: z.string().optional(),
      shape: z.enum(["object", "string", "html", "empty"]).optional(),
    }),
  }),
]);
export type BodySpec = z.infer<typeof BodySpec>;

/** A cut point: a byte offset, or the middle of the nth multi-byte UTF-8 character or
 * nth `data:` line (1-based). */
export const CutSpec = z.union([
  z.number().int().nonnegative(),
  z.strictObject({
    inside: z.enum(["utf8-char", "data-line"]),
    nth: z.number().int().positive().default(1),
  }),
]);
export type CutSpec = z.infer<typeof CutSpec>;

export const ChunkPlanSpec = z.union([
  z.enum(["event", "whole"]),
  z.strictObject({ every: z.number().int().positive() }),
  z.strictObject({ at: z.array(CutSpec).min(1) }),
]);
export type ChunkPlanSpec = z.infer<typeof ChunkPlanSpec>;

export const WirePlanSpec = z.strictObject({
  /** Cut the body into writes: per event (streams' default), whole, every N bytes, at cuts. */
  chunks: ChunkPlanSpec.optional(),
  firstByteDelayMs: DurationMs.optional(),
  /** Delay before the headers go out (a slow first byte of the response itself). */
  headersDelayMs: DurationMs.optional(),
  writeDelayMs: DurationMs.optional(),
  /** Insert `text` (default `: keep-alive\n\n`) after every `every` events. */
  keepAlive: z
    .strictObject({ every: z.number().int().positive().default(1), text: z.string().optional() })
    .optional(),
  /** How the response ends after `endAfterBytes` body bytes (default: all of them). */
  end: z.enum(["complete", "close", "reset", "hang"]).optional(),
  endAfterBytes: z.number().int().nonnegative().optional(),
  gzip: z.enum(["never", "if-accepted", "always"]).optional(),
  transfer: z.enum(["chunked", "content-length"]).optional(),
});
export type WirePlanSpec = z.infer<typeof WirePlanSpec>;

export const FAULTS = [
  "reset",
  "reset-before-headers",
  "close-mid-body",
  "hang",
  "html-502",
  "empty",
  "malformed-chunk",
] as const;
export type Fault = (typeof FAULTS)[number];

/** RFC 9110 token characters; values must not carry CR, LF or NUL (Node refuses them). */
const HeaderName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "not a valid header name");
const HeaderValue = z.string().regex(/^[^\r\n\0]*$/, "header values cannot contain CR, LF or NUL");

export const ReplySpec = z.strictObject({
  status: z.number().int().min(200).max(599).default(200),
  headers: z
    .union([z.record(HeaderName, HeaderValue), z.array(z.tuple([HeaderName, HeaderValue]))])
    .optional(),
  body: BodySpec.optional(),
  wire: WirePlanSpec.optional(),
  fault: z.enum(FAULTS).optional(),
});
export type ReplySpec = z.infer<typeof ReplySpec>;

export const MatchSpec = z
  .strictObject({
    nonce: z.string().min(1).optional(),
    model: z.string().min(1).optional(),
    path: z.string().startsWith("/").optional(),
  })
  .default({});
export type MatchSpec = z.infer<typeof MatchSpec>;

export const StagedReplySpec = z
  .strictObject({
    match: MatchSpec,
    /** How many times the reply (or the whole sequence) is served; "always" until reset. */
    times: z.union([z.number().int().positive(), z.literal("always")]).default(1),
    reply: ReplySpec.optional(),
    /** Replies served in order to successive matching requests: 503, 503, 200. */
    sequence: z.array(ReplySpec).min(1).optional(),
  })
  .refine((s) => (s.reply === undefined) !== (s.sequence === undefined), {
    message: "give exactly one of `reply` or `sequence`",
  });
export type StagedReplySpec = z.infer<typeof StagedReplySpec>;

/** Built once, not per call: building a zod schema costs more than a parse. */
const StagedReplyList = z.array(StagedReplySpec).min(1);

/** Parse a spec or a list of specs; on failure one line per problem: `sequence[1].status: ...`. */
export function parseStagedReply(
  input: unknown,
): { ok: true; specs: StagedReplySpec[] } | { ok: false; error: string } {
  const schema = Array.isArray(input) ? StagedReplyList : StagedReplySpec;
  const parsed = schema.safeParse(input);
  if (parsed.success) {
    return { ok: true, specs: Array.isArray(parsed.data) ? parsed.data : [parsed.data] };
  }
  const lines = explain(parsed.error.issues, []);
  return { ok: false, error: `invalid staged reply: ${lines.join("; ")}` };
}

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  errors?: Issue[][];
  keys?: string[];
}

/**
 * Issue lines with full paths. A union's "Invalid input" is replaced by the problems of the
 * branch the input came closest to: the one with fewest issues, where an unknown key at the
 * branch's own level (the input named a different form) disqualifies it.
 */
function explain(issues: readonly Issue[], base: PropertyKey[]): string[] {
  return issues.flatMap((issue) => {
    const path = [...base, ...issue.path];
    if (issue.code === "invalid_union" && issue.errors?.length) {
      const cost = (branch: Issue[]) =>
        branch.reduce(
          (n, i) => n + (i.code === "unrecognized_keys" && i.path.length === 0 ? 100 : 1),
          0,
        );
      const best = [...issue.errors].sort((a, b) => cost(a) - cost(b))[0] ?? [];
      if (cost(best) < 100) return explain(best, path);
      return [`${formatPath(path)}: ${issue.message} (none of the accepted forms fits)`];
    }
    return [`${formatPath(path)}: ${issue.message}`];
  });
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(spec)";
  return path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`))
    .join("");
}
