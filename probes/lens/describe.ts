/**
 * Short renderings of compared values for verdict reasons: a reason always shows both
 * sides, `stop_sequences: ["STOPPROBE"] → absent`, and stays one line.
 */
import { stableStringify } from "../../dialects/json.ts";
import type { Verdict, VerdictKind } from "../verdict.ts";

const LIMIT = 60;

/** One value, JSON-ish and clipped; `absent` for undefined. */
export function show(value: unknown): string {
  if (value === undefined) return "absent";
  const text = typeof value === "string" ? JSON.stringify(value) : stableStringify(value);
  if (text === undefined) return String(value);
  return text.length > LIMIT ? `${text.slice(0, LIMIT - 1)}…` : text;
}

/** `field: before → after`. */
export function change(field: string, before: unknown, after: unknown, note?: string): string {
  return `${field}: ${show(before)} → ${show(after)}${note ? ` (${note})` : ""}`;
}

/** Equality by value: numbers, strings, and JSON structures with key order ignored. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return stableStringify(a) === stableStringify(b);
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
