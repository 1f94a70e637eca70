/**
 * The only source of `no-equivalent`: lookups in the cited table (`no-equivalent-table.ts`).
 * A field absent downstream and not in the table is `dropped`; a refined subject (a kind of
 * an attribute, e.g. an image by URL) falls back to its attribute's row.
 */
import type { Part } from "../../dialects/canonical.ts";
import type { Dialect } from "../../dialects/dialect.ts";
import type { RequestAttribute } from "./field-names.ts";
import {
  isRefinedSubject,
  NO_EQUIVALENT,
  type NoEquivalentRow,
  REFINED_SUBJECTS,
  type RefinedSubject,
} from "./no-equivalent-table.ts";

export {
  isRefinedSubject,
  NO_EQUIVALENT,
  type NoEquivalentRow,
  REFINED_SUBJECTS,
  type RefinedSubject,
};

/**
 * Rows by direction, subject and target. Nested maps of the strings as given: the judges ask
 * for dozens of rows per exchange, and a key built by concatenation is a new string to hash
 * every time.
 */
const index = {
  request: new Map<string, Map<Dialect, NoEquivalentRow>>(),
  reply: new Map<string, Map<Dialect, NoEquivalentRow>>(),
} as const satisfies Record<NoEquivalentRow["direction"], unknown>;
for (const row of NO_EQUIVALENT) {
  const bySubject = index[row.direction];
  let byTarget = bySubject.get(row.subject);
  if (!byTarget) {
    byTarget = new Map();
    bySubject.set(row.subject, byTarget);
  }
  byTarget.set(row.target, row);
}

/** The row saying `subject` cannot be expressed in `target`, if there is one. */
export function noEquivalent(
  direction: NoEquivalentRow["direction"],
  subject: string,
  target: Dialect,
): NoEquivalentRow | undefined {
  return index[direction].get(subject)?.get(target);
}

/**
 * The request row saying `subject` cannot be expressed in `target`: a refined subject's own
 * row, else its attribute's.
 */
export function requestNoEquivalent(
  subject: NoEquivalentRow["subject"],
  target: Dialect,
): NoEquivalentRow | undefined {
  const own = noEquivalent("request", subject, target);
  if (own || !isRefinedSubject(subject)) return own;
  return noEquivalent("request", REFINED_SUBJECTS[subject], target);
}

type Media = Extract<Part, { type: "image" | "document" | "audio" }>;

function isMedia(part: Part): part is Media {
  return part.type === "image" || part.type === "document" || part.type === "audio";
}

/** The refined subject of a media part given by URL, where the table has one. */
export function mediaSubject(part: Media): NoEquivalentRow["subject"] {
  const byUrl = part.source.kind === "url" && !part.source.url.startsWith("data:");
  const refined = `messages.${part.type}.url`;
  return byUrl && isRefinedSubject(refined) ? refined : `messages.${part.type}`;
}

/** The row saying a content part (a media part by its kind and source) cannot reach `target`. */
export function partNoEquivalent(part: Part, target: Dialect): NoEquivalentRow | undefined {
  return isMedia(part) ? requestNoEquivalent(mediaSubject(part), target) : undefined;
}

/** The refined subject a value rule's sent value is a kind of (JSON mode, an allowed set). */
export function valueSubject(
  attribute: RequestAttribute,
  sent: unknown,
): RefinedSubject | undefined {
  const kind = (sent ?? {}) as { type?: unknown; mode?: unknown };
  if (attribute === "response-format" && kind.type === "json_object") {
    return "response-format.json-object";
  }
  if (attribute === "tool-choice" && kind.mode === "allowed") return "tool-choice.allowed";
  return undefined;
}

/**
 * The keys of a sent value the target has no place for (a schema's `strict`), by the refined
 * rows: the value without them, to compare what can be carried, and the rows that excuse them.
 */
export function expressibleValue(
  attribute: RequestAttribute,
  sent: unknown,
  target: Dialect,
): { value: unknown; excused: NoEquivalentRow[] } {
  if (attribute !== "response-format" || typeof sent !== "object" || sent === null) {
    return { value: sent, excused: [] };
  }
  const row = "strict" in sent ? requestNoEquivalent("response-format.strict", target) : undefined;
  if (!row) return { value: sent, excused: [] };
  const { strict: _strict, ...rest } = sent as Record<string, unknown>;
  return { value: rest, excused: [row] };
}
