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
import type { ClientDialect } from "../../dialects/dialect.ts";
import { REQUEST_FIELD_NAMES } from "./request-spellings.ts";

/** Canonical request attributes, named after the paths in dialects/canonical.ts. */
export const REQUEST_ATTRIBUTES = [
  "model",
  "system",
  "messages",
  "messages.text",
  "messages.image",
  "messages.document",
  "messages.audio",
  "messages.cache",
  "messages.tool-call",
  "messages.tool-call.id",
  "messages.tool-call.name",
  "messages.tool-call.arguments",
  "messages.tool-call.signature",
  "messages.tool-result",
  "messages.tool-result.call-id",
  "messages.tool-result.is-error",
  "messages.thinking",
  "messages.thinking.signature",
  "messages.reasoning",
  "messages.refusal",
  "tools",
  "tools.name",
  "tools.description",
  "tools.schema",
  "tools.strict",
  "tools.cache",
  "tool-choice",
  "parallel-tool-calls",
  "sampling.temperature",
  "sampling.top-p",
  "sampling.top-k",
  "sampling.max-tokens",
  "sampling.stop",
  "sampling.seed",
  "sampling.presence-penalty",
  "sampling.frequency-penalty",
  "sampling.n",
  "response-format",
  "reasoning.mode",
  "reasoning.budget-tokens",
  "reasoning.effort",
  "reasoning.summary",
  "metadata",
  "user",
  "stream",
  "stream-options.include-usage",
  "service-tier",
  "cache",
] as const;

export type RequestAttribute = (typeof REQUEST_ATTRIBUTES)[number];

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
 * Reply features, named the same for every dialect: a reply verdict's `field` is one of
 * these (the upstream feature the client should have received).
 */
export const REPLY_FEATURES = [
  "id",
  "text",
  "finish_reason",
  "stop_sequence",
  "tool_calls[].id",
  "tool_calls[].name",
  "tool_calls[].arguments",
  "thinking",
  "thinking.signature",
  "reasoning",
  "refusal",
  "usage.input_tokens",
  "usage.output_tokens",
  "usage.cache_read_tokens",
  "usage.cache_write_tokens",
  "usage.reasoning_tokens",
  "error.status",
  "error.message",
  "error.type",
  "stream.terminal",
  "stream.framing",
] as const;

export type ReplyFeature = (typeof REPLY_FEATURES)[number];

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

export function isReplyFeature(field: string): field is ReplyFeature {
  return (REPLY_FEATURES as readonly string[]).includes(field);
}
