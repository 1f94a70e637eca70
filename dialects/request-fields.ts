/**
 * Helpers every request reader and writer shares: a field reader that never loses a key,
 * object compaction for writers, the deep merge that writes extras back, and data URLs.
 * (They live here because this room has no shared request folder; see docs/dialects-requests.md.)
 */
import type { CacheMarker, MediaSource } from "./canonical.ts";
import { asArray, asRecord, isRecord, type JsonRecord } from "./json.ts";

/** One row of a reader's spelling table: `[canonical field, wire key, parse]`. */
export type Spelling<T> = {
  [K in keyof T]-?: readonly [K, string, (value: unknown) => T[K] | undefined];
}[keyof T];

/**
 * Reads a wire object key by key. A key that is taken but whose value does not parse,
 * and every key never taken, end up in `rest()`: nothing the wire carried is discarded.
 *
 * One is made for every object a reader reads, and a reader takes every key its dialect
 * defines (twenty at the top of a request) while a body carries a few. A lookup of an absent
 * key costs ~165 instructions (measured), so the reader walks the record's keys once: it
 * counts them, and once all are taken a take costs nothing and `rest()` has nothing to walk.
 * The extras object is made when the first one is kept. Records are JSON values:
 * every own key is enumerable, and absent is `undefined` (a hand-built record holding an
 * undefined value still gets its key into `rest()`, as an untaken key).
 */
export class FieldReader {
  private extras: JsonRecord | undefined;
  /** Keys taken that the record has, each once. */
  private taken: string[] | undefined;
  /** Keys of the record not taken yet. */
  private left = 0;

  constructor(readonly record: JsonRecord) {
    for (const _ in record) this.left++;
  }

  /** Whether the record has `key`, taken or not. */
  has(key: string): boolean {
    return this.record[key] !== undefined && Object.hasOwn(this.record, key);
  }

  /** The value of `key` if `parse` accepts it; otherwise the raw value is kept in extras. */
  take<T>(key: string, parse: (value: unknown) => T | undefined): T | undefined {
    if (this.left === 0) return undefined;
    const value = this.record[key];
    if (value === undefined || !Object.hasOwn(this.record, key)) return undefined;
    this.mark(key);
    const parsed = parse(value);
    if (parsed === undefined) this.extra(key, value);
    return parsed;
  }

  /**
   * `take`, setting `target[field]` only when the value parsed: canonical objects are built
   * without holes (no literal-then-compact) in one line per field.
   */
  takeInto<T extends object, K extends keyof T>(
    target: T,
    field: K,
    key: string,
    parse: (value: unknown) => T[K] | undefined,
  ): void {
    const parsed = this.take(key, parse);
    if (parsed !== undefined) target[field] = parsed;
  }

  /** `takeInto` for each row of a spelling table, in the table's order (the canonical key order). */
  takeSpellings<T extends object>(target: T, table: readonly Spelling<T>[]): T {
    for (const [field, key, parse] of table) this.takeInto(target, field, key, parse);
    return target;
  }

  /** The value of `key` as it is (a schema, an opaque object), or undefined when absent. */
  raw(key: string): unknown {
    if (this.left === 0) return undefined;
    const value = this.record[key];
    if (value === undefined || !Object.hasOwn(this.record, key)) return undefined;
    this.mark(key);
    return value;
  }

  /** Marks `key` as handled and keeps `leftover` (a raw value or a partial object) in extras. */
  keep(key: string, leftover: unknown): void {
    if (Object.hasOwn(this.record, key)) this.mark(key);
    if (leftover !== undefined) this.extra(key, leftover);
  }

  /** Notes a key the record has as taken (once: `keep` may follow a `take` of the same key). */
  private mark(key: string): void {
    if (this.taken === undefined) this.taken = [key];
    else if (this.taken.includes(key)) return;
    else this.taken.push(key);
    this.left--;
  }

  private extra(key: string, value: unknown): void {
    if (this.extras === undefined) this.extras = keyedRecord();
    this.extras[key] = value;
  }

  /**
   * Reads the nested object under `key` with `read`. Its unread keys are kept as a partial
   * object; when `read` finds nothing (undefined) or the value is not an object, the whole
   * raw value is kept.
   */
  nested<T>(key: string, read: (nested: FieldReader) => T | undefined): T | undefined {
    if (this.left === 0) return undefined;
    const value = this.record[key];
    if (value === undefined || !Object.hasOwn(this.record, key)) return undefined;
    this.mark(key);
    if (!isRecord(value)) {
      this.extra(key, value);
      return undefined;
    }
    const g = new FieldReader(value);
    const parsed = read(g);
    if (parsed === undefined) this.extra(key, value);
    else {
      const leftover = g.leftover();
      if (leftover !== undefined) this.extra(key, leftover);
    }
    return parsed;
  }

  /**
   * The reader of the object under `key`, for reading it over several steps (the table walk and
   * a dialect's own code share `generationConfig`): the key is taken, and `close` keeps what
   * is left of it. A value that is not an object is kept raw and gives undefined.
   */
  open(key: string): FieldReader | undefined {
    if (this.left === 0) return undefined;
    const value = this.record[key];
    if (value === undefined || !Object.hasOwn(this.record, key)) return undefined;
    this.mark(key);
    if (isRecord(value)) return new FieldReader(value);
    this.extra(key, value);
    return undefined;
  }

  /** Keeps what `child` (opened under `key`) left unread. */
  close(key: string, child: FieldReader): void {
    const leftover = child.leftover();
    if (leftover !== undefined) this.extra(key, leftover);
  }

  /** The extras: unparsed values, leftovers, and every key never taken. Call once, at the end. */
  rest(): JsonRecord {
    return this.leftover() ?? {};
  }

  /** `rest()`, or undefined when nothing is left (for containers whose extras are optional). */
  leftover(): JsonRecord | undefined {
    let out = this.extras;
    if (this.left === 0) return out;
    const taken = this.taken;
    for (const key in this.record) {
      if (taken === undefined || !taken.includes(key)) {
        if (out === undefined) out = keyedRecord();
        out[key] = this.record[key];
      }
    }
    return out;
  }
}

/**
 * A record for keys that come from traffic: no prototype, so a key named `__proto__` is kept
 * as a key (on `{}` assigning it sets the prototype and the key is lost) and `toString` or
 * `constructor` are never found on a record that lacks them.
 */
export function keyedRecord(): JsonRecord {
  return Object.create(null) as JsonRecord;
}

/** Reads a nested object: the parsed value, plus its unread keys as a partial object (or undefined). */
/**
 * Each record of a list read by `read`, into a list of the same length: a plain loop, where
 * `list.map` with a closure cost more on the readers' hot path.
 */
export function readEach<T>(list: readonly JsonRecord[], read: (record: JsonRecord) => T): T[] {
  const out: T[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) out[i] = read(list[i] as JsonRecord);
  return out;
}

export function readNested<T>(
  value: unknown,
  read: (f: FieldReader) => T,
): { value: T; leftover: JsonRecord | undefined } | undefined {
  if (!isRecord(value)) return undefined;
  const f = new FieldReader(value);
  const parsed = read(f);
  return { value: parsed, leftover: f.leftover() };
}

/** True when `record` has only keys from `allowed` (a part with other keys is kept raw). */
export function onlyKeys(record: JsonRecord, allowed: readonly string[]): boolean {
  // for-in, not Object.keys().every(): no key array and no callback per call (every part read).
  for (const key in record) if (!allowed.includes(key)) return false;
  return true;
}

/**
 * Readers tolerate unknown sibling keys (issue 20 §2): a structure (a content part, an output
 * format) is read by the keys its dialect defines, and one key more does not void it; the keys
 * beyond `known` are kept on it as `extras`, written back to the same dialect and judged by the
 * lens as an addition. Returns `read`, with `extras` set when there are any.
 */
export function withExtras<T extends { extras?: Record<string, unknown> }>(
  read: T,
  record: JsonRecord,
  known: readonly string[],
): T {
  const extras = otherKeys(record, known);
  if (extras !== undefined) read.extras = extras;
  return read;
}

/**
 * A written part with the extras its reader kept (`withExtras`) put back, when it is written to
 * the dialect it was read from; the keys written for the part win over an extra of the same name.
 */
export function writtenWithExtras(written: unknown, part: object, same: boolean): unknown {
  const extras = (part as { extras?: Record<string, unknown> }).extras;
  if (!same || extras === undefined || written === null || typeof written !== "object") {
    return written;
  }
  if (Array.isArray(written)) return written;
  return { ...extras, ...written };
}

/** The keys of `record` not in `known`, kept raw; undefined when there are none. */
export function otherKeys(record: JsonRecord, known: readonly string[]): JsonRecord | undefined {
  let out: JsonRecord | undefined;
  for (const key in record) {
    if (known.includes(key)) continue;
    if (out === undefined) out = keyedRecord();
    out[key] = record[key];
  }
  return out;
}

/**
 * Drops keys whose value is undefined, so written bodies and canonical values carry no holes.
 * Every caller passes a literal it just built, so one with no hole is handed back as it is;
 * this runs for every object a reader builds, hundreds of thousands of times.
 */
export function compact<T extends object>(value: T): T {
  let out: JsonRecord | undefined;
  for (const key in value) {
    const v = value[key];
    if (out !== undefined) {
      if (v !== undefined) out[key] = v;
    } else if (v === undefined) {
      // The first hole: copy the keys before it, then keep copying.
      out = {};
      for (const before in value) {
        if (before === key) break;
        out[before] = value[before];
      }
    }
  }
  return (out ?? value) as T;
}

/** Same as compact, but also drops empty objects and arrays (for optional containers). */
export function nonEmpty<T extends object>(value: T): T | undefined {
  const out = compact(value);
  for (const _ in out) return out;
  return undefined;
}

/**
 * Writes extras back over a written body: nested objects merge key by key (a reader keeps
 * `generationConfig.responseModalities` as `{generationConfig: {responseModalities}}`).
 * Otherwise the extra wins: it holds a value the reader could not map, so whatever the
 * writer put under that key is a placeholder (a Chat message of role "function" is read
 * as role "user" with `extras.role = "function"`).
 */
export function mergeExtras(body: JsonRecord, extras: JsonRecord | undefined): JsonRecord {
  if (!extras) return body;
  const out: JsonRecord = { ...body };
  for (const [key, value] of Object.entries(extras)) {
    const current = out[key];
    out[key] = isRecord(current) && isRecord(value) ? mergeExtras(current, value) : value;
  }
  return out;
}

/**
 * Google's JSON accepts snake_case spellings of every field (`system_instruction`,
 * `inline_data`). Renames one object's snake_case keys to lowerCamelCase, one level only,
 * so schemas and arguments underneath are untouched; a key whose camel spelling is also
 * present is left as it is (and ends up in extras).
 * @see https://protobuf.dev/programming-guides/json/ (parsers accept both names)
 */
export function camelKeys(record: JsonRecord): JsonRecord {
  let snake = false;
  for (const key in record) {
    if (key.includes("_")) {
      snake = true;
      break;
    }
  }
  // Most bodies are already camelCase: hand back the same object, never a mutated one.
  if (!snake) return record;
  const out: JsonRecord = keyedRecord();
  for (const [key, value] of Object.entries(record)) {
    const camel = key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
    if (camel !== key && !Object.hasOwn(record, camel) && !Object.hasOwn(out, camel))
      out[camel] = value;
    else out[key] = value;
  }
  return out;
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** `data:<type>;base64,<data>` split into its parts; any other URL is undefined. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = DATA_URL.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1] ?? "", data: match[2] ?? "" };
}

export function toDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

/**
 * A media source as inline bytes where it is a text: a dialect with no text source (Chat and
 * Responses `file_data`, Gemini `inlineData`) carries a text document as its UTF-8 bytes in
 * base64, `text/plain` unless the source says otherwise. Other sources are returned as they are.
 */
export function inlineSource(source: MediaSource): Exclude<MediaSource, { kind: "text" }> {
  if (source.kind !== "text") return source;
  const data = Buffer.from(source.data, "utf8").toString("base64");
  return { kind: "base64", mediaType: source.mediaType ?? "text/plain", data };
}

/** Parses tool-call arguments for dialects that carry an object; undefined when not an object. */
export function argumentsObject(args: string): JsonRecord | undefined {
  if (args.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(args);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** An array of records, or undefined (the caller keeps any other shape raw). */
export function asRecords(value: unknown): JsonRecord[] | undefined {
  const list = asArray(value);
  return list?.every(isRecord) ? list : undefined;
}

/** A stop value: one string or an array of strings, always returned as an array. */
export function asStopList(value: unknown): string[] | undefined {
  if (typeof value === "string") return [value];
  const list = asArray(value);
  return list?.every((s) => typeof s === "string") ? list : undefined;
}

export function asStringArray(value: unknown): string[] | undefined {
  const list = asArray(value);
  return list?.every((s) => typeof s === "string") ? list : undefined;
}

/** `cache_control`: `{type: "ephemeral", ttl?}`; the object is kept raw beside the parsed fields. */
export function readCacheMarker(value: unknown): CacheMarker | undefined {
  const raw = asRecord(value);
  if (!raw || typeof raw.type !== "string") return undefined;
  return typeof raw.ttl === "string"
    ? { type: raw.type, ttl: raw.ttl, raw }
    : { type: raw.type, raw };
}
