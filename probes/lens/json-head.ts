/**
 * The head of a value's JSON text: what `JSON.stringify` would write, stopped soon after a
 * given length. Verdict reasons show values clipped to 60 characters (describe.ts), so a
 * value's JSON beyond that is never read; and for the short strings, numbers and small
 * lists most reasons show, `JSON.stringify` was the largest cost of judging (12% of the
 * judging profile; docs/lens.md, Round 4). This writes plain JSON data only (strings,
 * finite and non-finite numbers, flags, null, arrays and plain objects) and answers
 * `undefined` for anything else (a `toJSON` method, a class instance, a Map, a bigint,
 * nesting deeper than 32), which the caller hands to `JSON.stringify` whole.
 *
 * No exception is thrown to stop the walk (Round 3 measured that dearer than serializing
 * everything): each step says whether to go on.
 */

/** Where the text is written and when to stop: once it is longer than `limit`. */
interface Head {
  text: string;
  limit: number;
}

const OK = 0;
/** The text is already longer than the limit: stop, what is written is an exact prefix. */
const FULL = 1;
/** A value this writer leaves to JSON.stringify. */
const UNSUPPORTED = 2;
type Step = typeof OK | typeof FULL | typeof UNSUPPORTED;

const MAX_DEPTH = 32;

/** Whether JSON.stringify writes the string as it is between quotes (nothing to escape). */
function plainString(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Quote, backslash and control characters are escaped; a surrogate is left to
    // JSON.stringify, which escapes a lone one.
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

/** A string's JSON text: `"s"` when nothing needs escaping, else JSON.stringify's. */
export function quote(s: string): string {
  return plainString(s) ? `"${s}"` : JSON.stringify(s);
}

function writeString(head: Head, s: string): Step {
  const room = head.limit - head.text.length + 2;
  if (s.length <= room) {
    head.text += quote(s);
    return head.text.length > head.limit ? FULL : OK;
  }
  // Longer than the room left: every character writes at least one, so its first `room`
  // characters fill the text past the limit. A surrogate pair cut at the end may be written
  // escaped, but only past the limit, where the text is not read.
  const part = quote(s.slice(0, room));
  head.text += part.slice(0, part.length - 1);
  return FULL;
}

/** Whether a value is one JSON.stringify leaves out of an object (and writes null in a list). */
function skipped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === "function";
}

function writeArray(head: Head, list: readonly unknown[], depth: number): Step {
  head.text += "[";
  for (let i = 0; i < list.length; i++) {
    if (i > 0) head.text += ",";
    const item = list[i];
    if (skipped(item)) head.text += "null";
    else {
      const step = write(head, item, depth + 1);
      if (step !== OK) return step;
    }
    if (head.text.length > head.limit) return FULL;
  }
  head.text += "]";
  return head.text.length > head.limit ? FULL : OK;
}

function writeObject(head: Head, record: Record<string, unknown>, depth: number): Step {
  head.text += "{";
  let first = true;
  // for-in over a plain or null-prototype object visits its own enumerable string keys in
  // the order JSON.stringify writes them (integer keys first, then by creation).
  for (const key in record) {
    const value = record[key];
    if (skipped(value)) continue;
    if (!first) head.text += ",";
    first = false;
    if (writeString(head, key) !== OK) return FULL;
    head.text += ":";
    const step = write(head, value, depth + 1);
    if (step !== OK) return step;
    if (head.text.length > head.limit) return FULL;
  }
  head.text += "}";
  return head.text.length > head.limit ? FULL : OK;
}

function write(head: Head, value: unknown, depth: number): Step {
  switch (typeof value) {
    case "string":
      return writeString(head, value);
    case "number":
      head.text += Number.isFinite(value) ? String(value) : "null";
      break;
    case "boolean":
      head.text += value ? "true" : "false";
      break;
    case "object": {
      if (value === null) {
        head.text += "null";
        break;
      }
      if (depth > MAX_DEPTH || hasToJson(value)) return UNSUPPORTED;
      if (Array.isArray(value)) {
        return Object.getPrototypeOf(value) === Array.prototype
          ? writeArray(head, value, depth)
          : UNSUPPORTED;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return UNSUPPORTED;
      return writeObject(head, value as Record<string, unknown>, depth);
    }
    default:
      return UNSUPPORTED;
  }
  return head.text.length > head.limit ? FULL : OK;
}

/**
 * JSON.stringify(value) when it is at most `limit` characters; else a longer exact prefix of
 * it (the caller clips). `undefined` when the value is not plain JSON data (see the header).
 */
export function jsonHead(value: unknown, limit: number): string | undefined {
  const head: Head = { text: "", limit };
  return write(head, value, 0) === UNSUPPORTED ? undefined : head.text;
}
