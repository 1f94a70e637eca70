/**
 * The merge that turns a probe fragment into a full request: objects merge key by key at
 * every depth; arrays, scalars and null replace. Arrays replace rather than concatenate so a
 * probe that gives `messages` states the whole history it means, readable in one place.
 */
import { isRecord, type JsonRecord } from "../../dialects/json.ts";

export function deepMerge(base: JsonRecord, fragment: JsonRecord): JsonRecord {
  const out: JsonRecord = { ...base };
  for (const [key, value] of Object.entries(fragment)) {
    const current = out[key];
    out[key] = isRecord(current) && isRecord(value) ? deepMerge(current, value) : clone(value);
  }
  return out;
}

/** A structural copy of JSON data, so a built request never aliases the probe's literals. */
export function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
