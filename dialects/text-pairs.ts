/**
 * Credential-named values in text that is not JSON as a whole, so no parse can name them: a
 * `"name": "value"` pair in a body cut short, one with a trailing comma or a byte-order mark,
 * an SSE event whose JSON spans several `data:` lines, the joined fragments of a stream
 * (split-secrets.ts); a form body's `password=...`; a multipart part named `password`.
 */
import { isCredentialKey, isRedactionTag, redactionTag } from "./credentials.ts";
import { decodedText } from "./escaped-view.ts";

/** A value found under a credential name: where it stands, and the whole `name: value` match. */
export interface NamedValue {
  start: number;
  end: number;
  /** The value as a reader decodes it, without an auth scheme (`Bearer `). */
  secret: string;
  matchStart: number;
  matchEnd: number;
}

/** `"name": "value"` in JSON text, escapes allowed in both; the value's content captured. */
const STRING_PAIR = /"((?:[^"\\]|\\.)*)"\s*:\s*"((?:[^"\\]|\\.)*)"/g;
const AUTH_SCHEME = /^(?:Bearer|Basic|Token)\s+/i;

/** Every `"name": "value"` pair in `text` whose name is a credential's. */
export function namedJsonValues(text: string): NamedValue[] {
  const found: NamedValue[] = [];
  if (!text.includes(":")) return found;
  for (const m of text.matchAll(STRING_PAIR)) {
    const [whole, name = "", value = ""] = m;
    if (value === "" || !isCredentialKey(decodedText(name))) continue;
    const valueEnd = m.index + whole.length - 1;
    const scheme = AUTH_SCHEME.exec(value)?.[0].length ?? 0;
    if (scheme === value.length) continue;
    found.push({
      start: valueEnd - value.length + scheme,
      end: valueEnd,
      secret: decodedText(value.slice(scheme)),
      matchStart: m.index,
      matchEnd: m.index + whole.length,
    });
  }
  return found;
}

/** A form body: `name=value` pairs joined by `&`, nothing else (no spaces, no line breaks). */
const FORM = /^[^=&\s]+=[^&\s]*(?:&[^=&\s]+=[^&\s]*)*$/;

/**
 * A multipart part's name, on its `Content-Disposition` line (not any `name="..."`, which an
 * HTML page's form also has), and its one-line value after its headers and a blank line.
 */
const MULTIPART_PART =
  /Content-Disposition:[^\r\n]*\bname="([^"\r\n]*)"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([^\r\n]+)/gi;

export function looksLikeForm(text: string): boolean {
  return FORM.test(text);
}

/**
 * `text` with every credential-named JSON pair's and multipart part's value replaced by its
 * tag, where it stands; the values found are pushed to `found` (for a search of the rest).
 */
export function redactNamedValues(text: string, found: string[]): string {
  const spans = namedJsonValues(text);
  if (text.includes('name="')) {
    for (const m of text.matchAll(MULTIPART_PART)) {
      const [whole, name = "", value = ""] = m;
      if (!isCredentialKey(name)) continue;
      const end = m.index + whole.length;
      spans.push({
        start: end - value.length,
        end,
        secret: value,
        matchStart: m.index,
        matchEnd: end,
      });
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const span of spans) {
    if (span.start < at || isRedactionTag(span.secret)) continue;
    found.push(span.secret);
    out += text.slice(at, span.start) + redactionTag(span.secret);
    at = span.end;
  }
  return out + text.slice(at);
}
