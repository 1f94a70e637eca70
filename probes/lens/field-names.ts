/**
 * The spelling table: how each canonical request attribute is spelled in each client
 * dialect, as a dotted path (`stop_sequences`, `tools[].strict`). Verdicts name fields in
 * the client's spelling so a report reads in the dialect the user wrote; the probe corpus
 * names its field under test with the same strings.
 *
 * Conventions:
 * - `[]` marks an array step (`tools[].strict`).
 * - Where a dialect tells content blocks or input items apart by their `type` rather than
 *   by a key, the block type stands as the last step (`messages[].content[].image`,
 *   `input[].function_call`): it reads as "an image block inside content".
 * - `[role=system]` marks a message selected by role (Chat's system prompt).
 * - `aliases` are other legal spellings of the same attribute (Chat `max_completion_tokens`
 *   beside `max_tokens`); lookups by field accept them, and a verdict uses a top-level
 *   alias when the client's body used it.
 * - An attribute with no row has no spelling in that dialect: a client in that dialect
 *   cannot send it, so no verdict is ever named by it.
 */
import type { RequestAttribute } from "../../dialects/attributes.ts";
import type { ClientDialect } from "../../dialects/dialect.ts";
import { REQUEST_FIELD_NAMES } from "./request-spellings.ts";

export {
  isReplyFeature,
  REPLY_FEATURES,
  REQUEST_ATTRIBUTES,
  type ReplyFeature,
  type RequestAttribute,
} from "../../dialects/attributes.ts";

export interface FieldSpelling {
  /** The dotted spelling verdicts use. */
  field: string;
  /** Other legal spellings of the same attribute in this dialect. */
  aliases?: readonly string[];
  /** Where the dialect documents it. */
  see: string;
}

/** The tables themselves are data, one per client dialect, in request-spellings.ts. */
export { REQUEST_FIELD_NAMES };

/**
 * Fields of the failure axis (probes/lens/failure-judges.ts): how a gateway behaves when the
 * upstream fails, judged from the reply, the forwarded records and the exchange's timing.
 */
export const FAILURE_FIELDS = [
  "failure.status",
  "failure.error_text",
  "failure.retries",
  "failure.deadline",
  "failure.gzip",
  "failure.fallback",
  "failure.stream_end",
] as const;

export type FailureField = (typeof FAILURE_FIELDS)[number];

export function isFailureField(field: string): field is FailureField {
  return (FAILURE_FIELDS as readonly string[]).includes(field);
}

/**
 * What the client's reply alone shows (issue 20 §3: a trace with no upstream side is judged by
 * these too), each its own subject, judged on every exchange: reply-invariants.ts.
 */
export const REPLY_INVARIANTS = [
  "invariant.tool-stop",
  "invariant.empty-content",
  "invariant.tool-arguments",
  "invariant.tool-call-id",
  "invariant.one-lifecycle",
  "invariant.block-lifecycle",
] as const;

export type ReplyInvariant = (typeof REPLY_INVARIANTS)[number];

export function isReplyInvariant(field: string): field is ReplyInvariant {
  return (REPLY_INVARIANTS as readonly string[]).includes(field);
}

/** The forwarded request path, judged against the backend dialect's documented route. */
export const PATH_FIELD = "path";

/** A header's field name: `headers.anthropic-beta`. */
export function headerField(name: string): `headers.${string}` {
  return `headers.${name.toLowerCase()}`;
}

export type CredentialPlace = "header" | "body" | "query";

/** A credential's field name: `credentials.header.x-api-key`, `credentials.query.key`. */
export function credentialField(place: CredentialPlace, name: string): `credentials.${string}` {
  return `credentials.${place}.${place === "header" ? name.toLowerCase() : name}`;
}

/** The spelling of `attribute` in `dialect`, or undefined when the dialect has none. */
export function fieldName(dialect: ClientDialect, attribute: RequestAttribute): string | undefined {
  return REQUEST_FIELD_NAMES[dialect][attribute]?.field;
}

const byField = new Map<ClientDialect, Map<string, RequestAttribute>>();

/** The attribute a field (or one of its aliases) spells in `dialect`. */
export function attributeOf(dialect: ClientDialect, field: string): RequestAttribute | undefined {
  let index = byField.get(dialect);
  if (!index) {
    index = new Map();
    for (const [attribute, spelling] of Object.entries(REQUEST_FIELD_NAMES[dialect])) {
      if (!spelling) continue;
      index.set(spelling.field, attribute as RequestAttribute);
      for (const alias of spelling.aliases ?? []) index.set(alias, attribute as RequestAttribute);
    }
    byField.set(dialect, index);
  }
  return index.get(field);
}
