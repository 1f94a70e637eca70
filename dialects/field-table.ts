/**
 * A dialect's field table: for every canonical request attribute, where the dialect carries it
 * (a dotted path, its other legal spellings, the page that documents it) or why it cannot (an
 * absent row with its reason and reference). One table per dialect, in `dialects/<d>/fields.ts`;
 * the reader and the writer walk its value rows, and the lens's spelling, backend-key and
 * no-equivalent lookups are views of it.
 *
 * Path conventions (docs/dialects-requests.md):
 * - `[]` marks an array step (`tools[].strict`);
 * - where a dialect tells content blocks or items apart by `type`, the block type stands as the
 *   last step (`messages[].content[].image`, `input[].function_call`);
 * - `[role=system]` marks a message selected by role (Chat's system prompt).
 */
import {
  type Accessor,
  type RefinedSubject,
  type ReplyFeature,
  type RequestAttribute,
  VALUE_ACCESSORS,
  type ValueAttribute,
} from "./attributes.ts";
import type { CacheMarker } from "./canonical.ts";
import { asBoolean, asNumber, asRecord, asString } from "./json.ts";
import { asStopList, asStringArray, readCacheMarker } from "./request-fields.ts";

/** How one value travels on the wire: parsed when read, rendered when written. */
export interface Codec {
  /** The canonical value of a wire value, or undefined when it is not one (kept raw in extras). */
  read(wire: unknown): unknown;
  /** The wire value of a canonical value. */
  write(value: unknown): unknown;
}

export interface FieldRow {
  attribute: RequestAttribute;
  /** The dotted path verdicts and probes spell the attribute with in this dialect. */
  path: string;
  /** Other legal spellings of the same attribute (lens lookups accept them). */
  aliases?: readonly string[];
  /**
   * Aliases the reader takes as the same value when `path` is absent (Chat's
   * `max_completion_tokens`); when both are sent, the alias stays raw in extras.
   */
  readsAliases?: boolean;
  /** Where the dialect documents it. */
  see: string;
  /**
   * A vendor extension the reader accepts (OpenAI-compatible servers take Chat `top_k`) but
   * the dialect's own reference does not define: read, written back only to its own dialect,
   * and never the dialect's spelling of the attribute. Says who documents it.
   */
  extension?: string;
  /**
   * The attribute travels in another attribute's field, in that field's unit (a thinking
   * switch as Chat's `reasoning_effort`, a prior refusal as assistant text): a place for it,
   * but not a spelling of its own.
   */
  via?: RequestAttribute;
  /**
   * Present on value rows: the reader and writer carry the attribute through the table walk
   * (field-walk.ts). A row without it is carried by the dialect's own message, tool and
   * format code, and is here for its spelling and reference.
   */
  codec?: Codec;
  /**
   * The values the dialect defines for an enumerated attribute, each with the canonical
   * meaning it has and the page that says so (`service_tier`: Chat `default` and Messages
   * `standard_only` both mean the standard tier). A value outside the table is one the dialect
   * does not define; a meaning no value of the table has cannot be expressed here. Read with
   * `dialects/value-tables.ts`.
   */
  values?: Readonly<Record<string, ValueMeaning>>;
  /**
   * The reference spells the field's values in both cases (Gemini's `thinkingLevel`: `LOW` in
   * its API reference's enum, `low` in its guide's requests), so one value in another case
   * means the same there. Read with `dialects/value-tables.ts` `anyCase`.
   */
  anyCase?: { see: string };
  /**
   * The dialect's reference requires the field in every request (Anthropic `max_tokens`): a
   * gateway must write one even when its client set none (a required fill, not an invention).
   */
  required?: boolean;
  /**
   * The provider refuses an empty value here (`tools: []` answered 400): the reference that
   * says so. A gateway that writes one where the client sent nothing breaks the request on
   * the real provider, which the severity of its `empty-added` finding reflects
   * (probes/lens/severity.ts). Absent: no reference says the provider refuses it.
   */
  rejectsEmpty?: string;
}

/** One wire value of an enumerated attribute: what it means, and where that is documented. */
export interface ValueMeaning {
  meaning: string;
  see: string;
}

/**
 * A subject a no-equivalent row can name. `extras.<key>` is a documented request parameter of
 * another dialect that no canonical attribute models (Responses `store`), named by its key:
 * the lens judges such a client key against these rows before calling it dropped.
 */
export type AbsentSubject =
  | RequestAttribute
  | RefinedSubject
  | ReplyFeature
  | `headers.${string}`
  | `extras.${string}`;

/** The dialect cannot carry `subject`: the only source of a `no-equivalent` verdict. */
export interface AbsentRow {
  direction: "request" | "reply";
  subject: AbsentSubject;
  reason: string;
  see: string;
}

export interface FieldTable {
  rows: readonly FieldRow[];
  absent: readonly AbsentRow[];
}

export const NUMBER: Codec = { read: asNumber, write: (v) => v };
export const STRING: Codec = { read: asString, write: (v) => v };
export const BOOLEAN: Codec = { read: asBoolean, write: (v) => v };
export const RECORD: Codec = { read: asRecord, write: (v) => v };
/** A list of strings. */
export const STRINGS: Codec = { read: asStringArray, write: (v) => v };
/** One string or a list of them, read as a list (Chat's and Ollama's `stop`). */
export const STOP_LIST: Codec = { read: asStopList, write: (v) => v };

/** A `cache_control` marker: read with its raw object, written back as it was sent. */
export const CACHE_MARKER: Codec = {
  read: readCacheMarker,
  write: (v) => {
    const cache = v as CacheMarker;
    return (
      cache.raw ?? { type: cache.type, ...(cache.ttl === undefined ? {} : { ttl: cache.ttl }) }
    );
  },
};

/** A row carried by the dialect's own code: its spelling and reference. */
export function spelled(
  attribute: RequestAttribute,
  path: string,
  see: string,
  aliases?: readonly string[],
): FieldRow {
  return aliases ? { attribute, path, aliases, see } : { attribute, path, see };
}

/** A row whose field the provider refuses when empty, with the reference that says so. */
export function rejectingEmpty(row: FieldRow, see: string): FieldRow {
  return { ...row, rejectsEmpty: see };
}

/** An attribute carried in another attribute's field (see FieldRow.via). */
export function carriedIn(
  attribute: RequestAttribute,
  via: RequestAttribute,
  path: string,
  see: string,
): FieldRow {
  return { attribute, path, see, via };
}

/** Whether a row is the dialect's own spelling of its attribute (not an extension, not via). */
export function isSpelling(row: FieldRow): boolean {
  return row.extension === undefined && row.via === undefined;
}

/** A row the table walk reads and writes: one wire value at `path` for one canonical value. */
export function value(
  attribute: ValueAttribute,
  path: string,
  codec: Codec,
  see: string,
  options: {
    aliases?: readonly string[];
    readsAliases?: boolean;
    extension?: string;
    required?: boolean;
    values?: Readonly<Record<string, ValueMeaning>>;
  } = {},
): FieldRow {
  const row: FieldRow = { attribute, path, see, codec };
  if (options.values) row.values = options.values;
  if (options.aliases) row.aliases = options.aliases;
  if (options.readsAliases) row.readsAliases = true;
  if (options.extension) row.extension = options.extension;
  if (options.required) row.required = true;
  return row;
}

/** Request subjects the dialect cannot express, each with the reason and the reference. */
export function absent(
  subjects: readonly AbsentSubject[],
  reason: string,
  see: string,
): AbsentRow[] {
  return subjects.map((subject) => ({ direction: "request", subject, reason, see }));
}

/** Reply features the dialect's replies cannot carry. */
export function absentInReply(
  features: readonly ReplyFeature[],
  reason: string,
  see: string,
): AbsentRow[] {
  return features.map((subject) => ({ direction: "reply", subject, reason, see }));
}

/** The accessor of a value row's attribute. */
export function accessorOf(row: FieldRow): Accessor | undefined {
  return (VALUE_ACCESSORS as Partial<Record<RequestAttribute, Accessor>>)[row.attribute];
}
