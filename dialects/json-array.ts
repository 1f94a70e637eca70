/**
 * Gemini's other stream framing: `streamGenerateContent` without `alt=sse` answers one JSON
 * array whose elements (each a whole GenerateContentResponse) are written as they are
 * generated, pretty-printed, `\n,\r\n` between them: `[{\n  "candidates": ...\n}\n,\r\n{...}\n]`.
 * Gateways split it on those bytes (Portkey splits a Google stream on `\r\n` and strips the
 * `[`, `,` and `]` around each piece), so the mock writes them exactly.
 *
 * @see https://cloud.google.com/apis/docs/system-parameters (`alt`: json by default; `prettyPrint`)
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
import type { FrameSink, StreamEvent } from "./sse.ts";

const OPEN = "[";
const BETWEEN = ",\r\n";
const CLOSE = "]";

/**
 * The wire text of each element as written, one unit per event: the first opens the array,
 * each later one starts with the separator, and the last unit closes it. Comment events (a
 * keep-alive) have no place in JSON and are left out, as NDJSON leaves them out.
 */
export function encodeJsonArrayUnits(events: readonly StreamEvent[]): string[] {
  const units: string[] = [];
  for (const event of events) {
    if (event.comment !== undefined && event.data === "") continue;
    const element = `${pretty(event.data)}\n`;
    units.push(units.length === 0 ? `${OPEN}${element}` : `${BETWEEN}${element}`);
  }
  units.push(units.length === 0 ? `${OPEN}${CLOSE}` : CLOSE);
  return units;
}

/** An element pretty-printed as Google's default `prettyPrint` writes it (two spaces). */
function pretty(data: string): string {
  try {
    return JSON.stringify(JSON.parse(data), null, 2);
  } catch {
    // Not JSON (a plan's deliberate fault): written as given, so the reader sees it.
    return data;
  }
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

/**
 * Frame an array's text into its elements, each handed to the sink as one event's data (the
 * element's own text, for the dialect's reader to parse). What is not a well-formed array is
 * reported: no `[`, text between elements that is not one comma, an element cut short, no
 * closing `]` (a stream cut before its end), text after it.
 */
export function frameJsonArray(text: string, sink: FrameSink): void {
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && WHITESPACE.has(text.charAt(i))) i++;
  };
  skipSpace();
  if (text.charAt(i) !== OPEN) {
    sink.onMalformed("a JSON-array stream that does not start with [");
    return;
  }
  i++;
  let expectElement = true;
  for (;;) {
    skipSpace();
    if (i >= text.length) {
      sink.onMalformed("JSON array not closed by ]");
      return;
    }
    const c = text.charAt(i);
    if (c === CLOSE) {
      i++;
      break;
    }
    if (c === ",") {
      if (expectElement) sink.onMalformed(`a stray comma at offset ${i}`);
      expectElement = true;
      i++;
      continue;
    }
    if (!expectElement) sink.onMalformed(`no comma before the element at offset ${i}`);
    const end = elementEnd(text, i);
    if (end === undefined) {
      sink.onMalformed("last JSON-array element cut short");
      sink.onEvent({ data: text.slice(i) });
      return;
    }
    sink.onEvent({ data: text.slice(i, end) });
    i = end;
    expectElement = false;
  }
  skipSpace();
  if (i < text.length) sink.onMalformed("text after the JSON array's closing ]");
}

/**
 * Where the element starting at `start` ends: after its matching bracket for an object or
 * array (strings and their escapes skipped), else at the next comma, bracket or whitespace.
 * Undefined when the text ends first.
 */
function elementEnd(text: string, start: number): number | undefined {
  const first = text.charAt(start);
  if (first !== "{" && first !== "[") {
    let i = start;
    while (i < text.length && !",]".includes(text.charAt(i)) && !WHITESPACE.has(text.charAt(i))) {
      i++;
    }
    return i < text.length ? i : undefined;
  }
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charAt(i);
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === "{" || c === "[") {
      depth++;
    } else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}
