/** Small total helpers for reading untyped JSON without throwing. */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asRecord(value: unknown): JsonRecord | undefined {
  return isRecord(value) ? value : undefined;
}

export function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function asBoolean(value: unknown): boolean | undefined {
  return typeof value === "boolean" ? value : undefined;
}

/** The keys of `record` not in `known`, kept raw: readers put these in `extras`. */
export function unknownKeys(record: JsonRecord, known: readonly string[]): JsonRecord {
  const out: JsonRecord = {};
  // for-in, not Object.entries: readers call this for every object (no pair arrays made).
  for (const key in record) {
    if (!known.includes(key)) out[key] = record[key];
  }
  return out;
}

/** Parse JSON without throwing; `ok: false` carries the parser's message. */
export function tryParseJson(
  text: string,
): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** JSON.stringify with keys sorted at every depth: a stable form for comparing by value. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isRecord(value)) {
    const out: JsonRecord = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key]);
    return out;
  }
  return value;
}

/**
 * How deeply JSON text nests (`[` and `{` outside strings), counted without parsing it or
 * recursing, so a body nested beyond what a recursive walk survives can be measured first.
 * Works on any text: an SSE stream's events are counted as they come.
 */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return deepest;
}
