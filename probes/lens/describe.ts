/**
 * Short renderings of compared values for verdict reasons: a reason always shows both
 * sides, `stop_sequences: ["STOPPROBE"] → absent`, and stays one line.
 */
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

export function verdict(
  direction: Direction,
  field: string,
  kind: VerdictKind,
  reason: string,
  cause?: string,
): Verdict {
  return cause === undefined
    ? { field, verdict: kind, reason, direction }
    : { field, verdict: kind, reason, cause, direction };
}
