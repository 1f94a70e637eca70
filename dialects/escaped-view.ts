/**
 * Text as a reader of its JSON strings sees it. A key or secret spelled with escapes
 * (`"s\u006b-proj-…"`) is invisible to a scan of the bytes, yet any JSON reader of a stored
 * body or stream event gets the key back. Redaction searches this view and replaces the
 * matching spans of the original text, so every other byte stays exactly as it came.
 */

/** The decoded text, and for each of its characters the offset where its spelling starts. */
export interface EscapedView {
  view: string;
  /** `starts[i]` is the original offset of view character i; `starts[view.length]` is the end. */
  starts: number[];
}

/** The one-character JSON escapes, by the letter after the backslash. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * Decodes every JSON escape, wherever it stands: outside a JSON string (an SSE `event:` line)
 * a backslash is rare, and decoding it there too can only find more to redact, never less.
 * A backslash that starts no valid escape is kept as written.
 */
export function escapedView(text: string): EscapedView {
  const starts: number[] = [];
  return { view: decode(text, starts), starts };
}

/** The view's text alone: for a quick "is anything there" before any span is mapped. */
export function decodedText(text: string): string {
  return decode(text, undefined);
}

/** One walk for both: `starts`, when given, gets each view character's original offset. */
function decode(text: string, starts: number[] | undefined): string {
  const pieces: string[] = [];
  let i = 0;
  while (i < text.length) {
    const slash = text.indexOf("\\", i);
    const plainEnd = slash < 0 ? text.length : slash;
    if (starts) for (let j = i; j < plainEnd; j++) starts.push(j);
    pieces.push(text.slice(i, plainEnd));
    if (slash < 0) break;
    const letter = text[slash + 1] ?? "";
    const short = SHORT_ESCAPES[letter];
    const hex = letter === "u" ? text.slice(slash + 2, slash + 6) : "";
    starts?.push(slash);
    if (short !== undefined) {
      pieces.push(short);
      i = slash + 2;
    } else if (HEX4.test(hex)) {
      pieces.push(String.fromCharCode(Number.parseInt(hex, 16)));
      i = slash + 6;
    } else {
      pieces.push("\\");
      i = slash + 1;
    }
  }
  starts?.push(text.length);
  return pieces.join("");
}

/** A span of the view to replace, end exclusive. */
export interface ViewSpan {
  start: number;
  end: number;
  replacement: string;
}

/**
 * Replaces spans found in the text's view (in order, not overlapping) where they are spelled
 * in the original text, escapes and all; the rest of the text is kept byte for byte.
 */
export function replaceInView(text: string, find: (view: string) => ViewSpan[]): string {
  const { view, starts } = escapedView(text);
  const spans = find(view);
  if (spans.length === 0) return text;
  let out = "";
  let at = 0;
  for (const span of spans) {
    const from = starts[span.start] as number;
    out += text.slice(at, from) + span.replacement;
    at = starts[span.end] as number;
  }
  return out + text.slice(at);
}
