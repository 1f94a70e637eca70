/**
 * Short renderings of compared values for verdict reasons: a reason always shows both
 * sides, `stop_sequences: ["STOPPROBE"] → absent`, and stays one line.
 */
import type { Verdict, VerdictKind } from "../verdict.ts";

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
  if (typeof value === "string" && value.length > LIMIT) {
    return `${JSON.stringify(value.slice(0, LIMIT)).slice(0, LIMIT - 1)}…`;
  }
  const text = isPlainContainer(value) ? jsonHead(value) : JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > LIMIT ? `${text.slice(0, LIMIT - 1)}…` : text;
}

function isPlainContainer(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Thrown inside jsonHead: the head is long enough, or a value needs JSON.stringify itself. */
const ENOUGH = Symbol("enough");
const UNUSUAL = Symbol("unusual");

/**
 * JSON.stringify of a plain JSON structure, stopped once it is longer than LIMIT: show() keeps
 * LIMIT - 1 characters of a longer text, and the lens shows whole tool lists, schemas and
 * descriptions. The characters written are JSON.stringify's (keys in its order, undefined and
 * functions left out of objects and null in arrays, strings by JSON.stringify itself); a value
 * it would treat otherwise (toJSON, a class instance, a bigint) is left to JSON.stringify.
 */
function jsonHead(value: object): string | undefined {
  let out = "";
  const write = (text: string): void => {
    out += text;
    if (out.length > LIMIT) throw ENOUGH;
  };
  const item = (v: unknown, inArray: boolean): boolean => {
    switch (typeof v) {
      case "string":
        // A long string fills the head anyway: its first LIMIT characters decide it.
        write(JSON.stringify(v.length > LIMIT ? v.slice(0, LIMIT) : v));
        return true;
      case "number":
        write(Number.isFinite(v) ? String(v) : "null");
        return true;
      case "boolean":
        write(v ? "true" : "false");
        return true;
      case "undefined":
      case "function":
      case "symbol":
        if (inArray) write("null");
        return inArray;
      case "object":
        if (v === null) write("null");
        else if (!isPlainContainer(v) || "toJSON" in v) throw UNUSUAL;
        else container(v);
        return true;
      default:
        throw UNUSUAL;
    }
  };
  const container = (v: object): void => {
    if (Array.isArray(v)) {
      write("[");
      for (let i = 0; i < v.length; i++) {
        if (i > 0) write(",");
        item(v[i], true);
      }
      write("]");
      return;
    }
    const record = v as Record<string, unknown>;
    write("{");
    let first = true;
    for (const key of Object.keys(record)) {
      const member = record[key];
      const t = typeof member;
      if (t === "undefined" || t === "function" || t === "symbol") continue;
      write(`${first ? "" : ","}${JSON.stringify(key)}:`);
      first = false;
      item(member, false);
    }
    write("}");
  };
  try {
    if ("toJSON" in value) return JSON.stringify(value);
    container(value);
    return out;
  } catch (stop) {
    if (stop === ENOUGH) return out;
    if (stop === UNUSUAL) return JSON.stringify(value);
    throw stop;
  }
}

/** `field: before → after`. */
export function change(field: string, before: unknown, after: unknown, note?: string): string {
  return `${field}: ${show(before)} → ${show(after)}${note ? ` (${note})` : ""}`;
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
