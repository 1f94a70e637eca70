/**
 * Bodies redacted as text, keeping every byte that holds no secret: a JSON body, whose
 * credential-named keys are read from its parse, and a stream (SSE `data:` lines, Ollama's
 * NDJSON), each of whose lines that is JSON is redacted as a body of its own, and whose
 * secrets cut across events are found in the events' joined values. What counts as
 * a credential, and how text and JSON values are redacted: credentials.ts.
 */

import { redactQuery } from "./credential-url.ts";
import {
  CREDENTIAL_NAME_PARTS,
  credentialLeft,
  credentialValuesInJson,
  environmentSecretsNow,
  MIN_TEXT_SECRET,
  mayHideKey,
  redactJson,
  redactText,
  textSecrets,
} from "./credentials.ts";
import { stringifyDeep } from "./deep-json.ts";
import { foundInEscapedJson } from "./escaped-json-fast.ts";
import { type EventLine, redactSplitSecrets } from "./split-secrets.ts";
import { looksLikeForm, redactNamedValues } from "./text-pairs.ts";

/**
 * Redact a raw body in place, keeping its bytes otherwise exact: secrets found under
 * credential-named JSON keys, the extra secrets given, and key-shaped strings are replaced
 * where they stand in the text. A secret that JSON escaping changed on the wire is caught by
 * a structural pass as a fallback, which re-serializes (a stream's line alone).
 */
export function redactBody(raw: string, extraSecrets: readonly string[] = []): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return redactUnparsedBody(raw, extraSecrets);
  }
  return redactParsedBody(raw, parsed, extraSecrets);
}

/**
 * A credential-named key as JSON spells it (also inside a JSON string, quotes escaped: a tool
 * call's arguments), or an escape that may spell one.
 */
const MAY_NAME_CREDENTIAL = new RegExp(
  `\\\\?"[^"\\\\]*(?:${CREDENTIAL_NAME_PARTS})[^"\\\\]*\\\\?"\\s*:|\\\\u`,
  "i",
);

/** Line ends as SSE and NDJSON allow them, captured so the lines join back byte for byte. */
const LINE_END = /(\r\n|\r|\n)/;

/** The JSON lines of a body split at its line ends: SSE `data:` lines, NDJSON lines. */
function eventLines(pieces: readonly string[]): EventLine[] {
  const lines: EventLine[] = [];
  for (let i = 0; i < pieces.length; i += 2) {
    const line = pieces[i] as string;
    const dataAt = line.startsWith("data:") ? line.length - line.slice(5).trimStart().length : 0;
    const first = line[dataAt];
    if (first !== "{" && first !== "[") continue;
    try {
      lines.push({ piece: i, dataAt, parsed: JSON.parse(line.slice(dataAt)) });
    } catch {
      // Not JSON: the text scan still covers the line.
    }
  }
  return lines;
}

/**
 * A body that is not one JSON value. A form is redacted as a query string. A stream, whose
 * SSE `data:` lines or NDJSON lines each are JSON, has a secret cut across its events
 * redacted first (split-secrets.ts); then a line that is JSON with a credential-named key is
 * redacted as a JSON body (a value too short to search for in text is redacted there, by its
 * key). A line no parse could read (a body cut short, an event over several `data:` lines, a
 * multipart part) has its credential-named values redacted as text (text-pairs.ts). The
 * values found are then searched for in the whole text, with the key shapes.
 */
export function redactUnparsedBody(raw: string, extraSecrets: readonly string[] = []): string {
  if (looksLikeForm(raw)) return redactQuery(raw, extraSecrets);
  const pieces = raw.split(LINE_END);
  const lines = eventLines(pieces);
  const found = redactSplitSecrets(pieces, lines, extraSecrets);
  const split = found.length > 0 ? pieces.join("") : raw;
  const unparsed = unparsedNamingCredential(pieces, lines);
  if (!unparsed && !MAY_NAME_CREDENTIAL.test(split)) {
    return redactText(split, found.length === 0 ? extraSecrets : [...found, ...extraSecrets]);
  }
  for (const line of lines) {
    // A line the split pass rewrote had its parse edited alike.
    const values = credentialValuesInJson(line.parsed);
    if (values.length === 0) continue;
    found.push(...values);
    const piece = pieces[line.piece] as string;
    const data = piece.slice(line.dataAt);
    pieces[line.piece] =
      piece.slice(0, line.dataAt) + redactParsedBody(data, line.parsed, extraSecrets);
  }
  let joined = pieces.join("");
  // What no parse could read is searched as text (values already tags are left).
  if (unparsed) joined = redactNamedValues(joined, found);
  return redactText(joined, found.length === 0 ? extraSecrets : [...found, ...extraSecrets]);
}

/** Whether a line that is not JSON on its own may name a credential (or a multipart part). */
function unparsedNamingCredential(pieces: readonly string[], lines: readonly EventLine[]): boolean {
  const parsed = new Set(lines.map((line) => line.piece));
  for (let i = 0; i < pieces.length; i += 2) {
    if (parsed.has(i)) continue;
    const piece = pieces[i] as string;
    if (piece.includes('name="') || MAY_NAME_CREDENTIAL.test(piece)) return true;
  }
  return false;
}

/**
 * `redactBody` for a caller that has already parsed `raw` (it must be `JSON.parse(raw)`),
 * so a body is parsed once on the mock's hot path.
 */
export function redactParsedBody(
  raw: string,
  parsed: unknown,
  extraSecrets: readonly string[] = [],
): string {
  const found = credentialValuesInJson(parsed);
  const secrets = extraSecrets.length === 0 ? found : [...found, ...extraSecrets];
  // Escapes (a Python client's non-ASCII text) are looked behind through the parse: nothing
  // there and no credential-named key means nothing to redact, without decoding the text.
  if (found.length === 0 && mayHideKey(raw)) {
    const searched = textSecrets([...secrets, ...environmentSecretsNow()]);
    if (foundInEscapedJson(raw, parsed, searched) === false) return raw;
  }
  const out = redactText(raw, secrets);
  // redactText reads escapes, so nothing found there means nothing hides in the body.
  if (out === raw && found.length === 0) return raw;
  // The in-place text can stop being JSON when a secret also stood outside a string
  // (inside a number, a key spelled with escapes): then re-serialize from the structure.
  let reparsed: unknown;
  try {
    reparsed = JSON.parse(out);
  } catch {
    return stringifyDeep(redactJson(parsed, secrets));
  }
  // A last look at what a reader of the stored JSON gets, escapes undone: a value under a
  // credential-named key too short to be searched in text, or a key shape the in-place
  // replacement missed.
  if (credentialLeft(reparsed)) return stringifyDeep(redactJson(reparsed, extraSecrets));
  const plain = stringifyDeep(reparsed);
  const leftover =
    secrets.some((s) => s.length >= MIN_TEXT_SECRET && plain.includes(s)) ||
    redactText(plain) !== plain;
  return leftover ? stringifyDeep(redactJson(reparsed, extraSecrets)) : out;
}
