/**
 * Short renderings of compared values for verdict reasons: a reason always shows both
 * sides, `stop_sequences: ["STOPPROBE"] → absent`, and stays one line.
 */
import type { Cause } from "../causes.ts";
import type { Subject } from "../subject.ts";
import type { Verdict, VerdictKind } from "../verdict.ts";
import { jsonHead, quote } from "./json-head.ts";

const LIMIT = 60;

/** One value, JSON-ish and clipped; `absent` for undefined. */
export function show(value: unknown): string {
  if (value === undefined) return "absent";
  // Numbers and flags print as JSON does (non-finite numbers are JSON null), without its cost.
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  // A long string is clipped anyway: serialize only its head. Each character escapes to one
  // or more, so the first LIMIT characters decide the first LIMIT - 1 of the output, the same
  // bytes a whole-string JSON.stringify would give (the lens shows long texts often).
  if (typeof value === "string") {
    if (value.length <= LIMIT - 2) return quote(value);
    if (value.length > LIMIT) return `${quote(value.slice(0, LIMIT)).slice(0, LIMIT - 1)}…`;
  }
  // Plain data is written only as far as the clip (json-head.ts); anything else whole.
  const text = jsonHead(value, LIMIT) ?? JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > LIMIT ? `${text.slice(0, LIMIT - 1)}…` : text;
}

/**
 * Whether two values render to the same JSON text: equal primitives, or plain lists and
 * objects with the same keys in the same order and such values. A no is always safe (the
 * caller then renders both); it says yes only where `show` must give the same text.
 */
export function sameRendering(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    if (Object.getPrototypeOf(a) !== Array.prototype) return false;
    if (Object.getPrototypeOf(b) !== Array.prototype) return false;
    if ((a as { toJSON?: unknown }).toJSON !== undefined) return false;
    if ((b as { toJSON?: unknown }).toJSON !== undefined) return false;
    for (let i = 0; i < a.length; i++) if (!sameRendering(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlainRecord(a) || !isPlainRecord(b)) return false;
  const keys = Object.keys(a);
  const other = Object.keys(b);
  if (keys.length !== other.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key !== other[i] || !sameRendering(a[key], b[key])) return false;
  }
  return true;
}

/** A plain or null-prototype object with no `toJSON` (which would render it otherwise). */
function isPlainRecord(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return (
    (proto === Object.prototype || proto === null) &&
    (value as { toJSON?: unknown }).toJSON === undefined
  );
}

/**
 * `before → after`, rendering `after` only when it can differ from `before`: most verdicts
 * show a value that arrived as it was sent, and `show` was 13% of judging's profile, the
 * largest single cost (docs/lens.md, Round 5).
 */
export function showChange(before: unknown, after: unknown): string {
  const shown = show(before);
  return `${shown} → ${sameRendering(before, after) ? shown : show(after)}`;
}

/** `field: before → after`. */
export function change(field: string, before: unknown, after: unknown, note?: string): string {
  return `${field}: ${showChange(before, after)}${note ? ` (${note})` : ""}`;
}

/** Equality by value: numbers, strings, and JSON structures with key order ignored. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let count = 0;
  for (const key in ra) {
    if (ra[key] === undefined) continue;
    count++;
    if (!sameValue(ra[key], rb[key])) return false;
  }
  for (const key in rb) if (rb[key] !== undefined) count--;
  return count === 0;
}

export type Direction = NonNullable<Verdict["direction"]>;

export interface VerdictInit {
  direction: Direction;
  subject: Subject;
  /** The client's spelling of the subject, which the reason starts with. */
  field: string;
  kind: VerdictKind;
  /** The two values compared, rendered (`["STOPPROBE"] → absent`): the reason after the field. */
  detail: string;
  cause?: Cause | undefined;
  /** The values compared, kept on the verdict when both are small (comparedValues). */
  sent?: unknown;
  got?: unknown;
}

/** A verdict, its reason rendered as `<field>: <detail>` (every reason has that form). */
export function verdict(init: VerdictInit): Verdict {
  const reason = `${init.field}: ${init.detail}`;
  const { subject, field, kind, cause, direction } = init;
  // Key order as stored since schema version 1 (cause before direction), the new keys around.
  const out: Verdict =
    cause === undefined
      ? { subject, field, verdict: kind, reason, direction }
      : { subject, field, verdict: kind, reason, cause, direction };
  if (init.sent !== undefined && small(init.sent) && small(init.got)) {
    out.sent = init.sent;
    if (init.got !== undefined) out.got = init.got;
  }
  return out;
}

/** The largest value, as JSON text, a verdict keeps beside its reason. */
const KEPT_VALUE_LIMIT = 256;

/**
 * Whether a compared value is small enough to keep on the verdict: scalars always, structures
 * while their JSON stays short. Texts and message lists are shown in the reason (clipped) and
 * stay in the stored bytes; a verdict list holding them whole would double what is stored.
 */
function small(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "number" || typeof value === "boolean") return true;
  if (typeof value === "string") return value.length <= KEPT_VALUE_LIMIT;
  const text = jsonHead(value, KEPT_VALUE_LIMIT + 1);
  return text !== undefined && text.length <= KEPT_VALUE_LIMIT;
}

/** The verdict as another spelling of its subject names it (`field`), reason and all. */
export function respelled(v: Verdict, field: string): Verdict {
  if (v.field === field) return v;
  return { ...v, field, reason: `${field}${v.reason.slice(v.field.length)}` };
}
