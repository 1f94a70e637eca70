/**
 * Credentials on the wire: which header, query and body names carry them in each dialect,
 * which string shapes look like provider keys, and how they are redacted. Redaction keeps a
 * short hash, `[REDACTED:<first 8 hex of sha256>]`, so two records can still be compared
 * for equality and a leak check can match a known canary without the secret touching disk.
 */
import { createHash } from "node:crypto";
import { decodedText, replaceInView, type ViewSpan } from "./escaped-view.ts";

/** Header names (lower case) that carry a credential in some dialect or gateway. */
export const CREDENTIAL_HEADERS = [
  "authorization",
  "proxy-authorization",
  "x-api-key",
  "api-key",
  "x-goog-api-key",
  "openai-organization",
  "openai-project",
  "x-portkey-api-key",
  "cookie",
] as const;

/** Query parameter names that carry a credential (`?key=` is Gemini's). */
export const CREDENTIAL_QUERY_PARAMS = ["key", "api_key", "api-key", "access_token"] as const;

/** Body keys (any depth) whose string value is a credential. */
export const CREDENTIAL_BODY_KEYS = ["api_key", "apiKey", "api-key", "x-api-key", "authorization"];

/**
 * Key-shaped strings, found anywhere in text. Order matters: the Anthropic shape is
 * checked before the generic `sk-` one so both become one tag, not two.
 */
export const KEY_SHAPES: readonly RegExp[] = [
  /sk-ant-[A-Za-z0-9_-]{8,}/g,
  /sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/g,
  /AIza[0-9A-Za-z_-]{20,}/g,
  /pk-[A-Za-z0-9_-]{16,}/g,
  /gsk_[A-Za-z0-9]{20,}/g,
];

const TAG = /\[REDACTED:[0-9a-f]{8}\]/;

/**
 * Tags already computed: the same few secrets (the sweep's canaries, a route's key) are
 * redacted in every record, and a sha256 per occurrence showed in the sweep's profile.
 * Bounded, since arbitrary key-shaped strings from traffic pass through here too.
 */
const tagCache = new Map<string, string>();
const TAG_CACHE_LIMIT = 1024;

/** The tag that stands in for a secret; the same secret always gives the same tag. */
export function redactionTag(secret: string): string {
  const cached = tagCache.get(secret);
  if (cached !== undefined) return cached;
  const hex = createHash("sha256").update(secret).digest("hex").slice(0, 8);
  const tag = `[REDACTED:${hex}]`;
  if (tagCache.size >= TAG_CACHE_LIMIT) tagCache.clear();
  tagCache.set(secret, tag);
  return tag;
}

export function isRedactionTag(value: string): boolean {
  return TAG.test(value);
}

/** Every KEY_SHAPES pattern starts with one of these: one scan rules out most text. */
const KEY_PREFIXES = /sk-|AIza|pk-|gsk_/;

/**
 * Replace every key-shaped substring (and every extra secret given) by its tag, also where
 * the text spells one with `\u` escapes (inside a JSON body or a stream's event lines).
 */
export function redactText(text: string, extraSecrets: readonly string[] = []): string {
  if (text.includes("\\u")) return redactEscapedText(text, extraSecrets);
  let out = text;
  for (const secret of extraSecrets) {
    if (secret.length >= 6 && out.includes(secret)) {
      out = out.split(secret).join(redactionTag(secret));
    }
  }
  if (!KEY_PREFIXES.test(out)) return out;
  for (const shape of KEY_SHAPES) out = out.replace(shape, (m) => redactionTag(m));
  return out;
}

/**
 * `redactText` for text with `\u` escapes: secrets and key shapes are searched in the text
 * as a JSON reader decodes it (escapedView) and replaced where they are spelled. Escapes are
 * rare in traffic (Python's `json.dumps` writes them for non-ASCII), so only such text pays.
 */
function redactEscapedText(text: string, extraSecrets: readonly string[]): string {
  // Escaped text seldom holds a key: one decode rules that out before any span is mapped.
  const decoded = decodedText(text);
  const holdsSecret = extraSecrets.some((s) => s.length >= 6 && decoded.includes(s));
  if (!holdsSecret && !KEY_PREFIXES.test(decoded)) return text;
  let out = text;
  for (const secret of extraSecrets) {
    if (secret.length < 6) continue;
    const tag = redactionTag(secret);
    out = replaceInView(out, (view) => occurrences(view, secret, tag));
  }
  for (const shape of KEY_SHAPES) {
    out = replaceInView(out, (view) =>
      KEY_PREFIXES.test(view)
        ? [...view.matchAll(shape)].map((m) => ({
            start: m.index,
            end: m.index + m[0].length,
            replacement: redactionTag(m[0]),
          }))
        : [],
    );
  }
  return out;
}

/** Every occurrence of `needle` in `view`, left to right, not overlapping. */
function occurrences(view: string, needle: string, replacement: string): ViewSpan[] {
  const spans: ViewSpan[] = [];
  for (let at = view.indexOf(needle); at >= 0; at = view.indexOf(needle, at + needle.length)) {
    spans.push({ start: at, end: at + needle.length, replacement });
  }
  return spans;
}

/**
 * A credential header's value, redacted. `Bearer sk-...` keeps its scheme so a reader can
 * see the header was a bearer token.
 */
export function redactCredentialValue(value: string): string {
  const bearer = /^(Bearer|Basic|Token)\s+(.+)$/i.exec(value);
  if (bearer) return `${bearer[1]} ${redactionTag(bearer[2] ?? "")}`;
  return redactionTag(value);
}

const CREDENTIAL_HEADER_SET: ReadonlySet<string> = new Set(CREDENTIAL_HEADERS);

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADER_SET.has(name.toLowerCase());
}

/**
 * Body keys already judged: a body's keys repeat from request to request (`model`,
 * `messages`, `role`, `content`), and the mock judges every key of every body it records.
 * Bounded in count and key length, since keys come from traffic.
 */
const credentialKeys = new Map<string, boolean>();
const CREDENTIAL_KEY_CACHE_LIMIT = 4096;
const CACHED_KEY_MAX_LENGTH = 64;

/**
 * A JSON key whose string value is a credential: a body key, a credential header's name,
 * or `bearer` / `token`. Runs for every key of every recorded body, so the regex only sees
 * keys of the right length.
 */
function isCredentialKey(key: string): boolean {
  let known = credentialKeys.get(key);
  if (known === undefined) {
    known =
      CREDENTIAL_BODY_KEYS.includes(key) ||
      isCredentialHeader(key) ||
      ((key.length === 5 || key.length === 6) && /^(bearer|token)$/i.test(key));
    if (key.length <= CACHED_KEY_MAX_LENGTH) {
      if (credentialKeys.size >= CREDENTIAL_KEY_CACHE_LIMIT) credentialKeys.clear();
      credentialKeys.set(key, known);
    }
  }
  return known;
}

/** Headers as ordered pairs, names and order kept, credential values redacted. */
export function redactHeaderPairs(
  pairs: readonly (readonly [string, string])[],
  extraSecrets: readonly string[] = [],
): [string, string][] {
  return pairs.map(([name, value]) => [
    name,
    isCredentialHeader(name) ? redactCredentialValue(value) : redactText(value, extraSecrets),
  ]);
}

/** decodeURIComponent that keeps malformed percent-encoding as written instead of throwing. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A query string (without `?`), credential parameters redacted, order kept. */
export function redactQuery(query: string, extraSecrets: readonly string[] = []): string {
  if (!query) return query;
  return query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0) return pair;
      const name = safeDecode(pair.slice(0, eq));
      const value = pair.slice(eq + 1);
      if ((CREDENTIAL_QUERY_PARAMS as readonly string[]).includes(name.toLowerCase())) {
        return `${pair.slice(0, eq)}=${redactionTag(safeDecode(value))}`;
      }
      return `${pair.slice(0, eq)}=${redactText(value, extraSecrets)}`;
    })
    .join("&");
}

/** A JSON value with credential-named keys' string values and key-shaped strings redacted. */
export function redactJson(value: unknown, extraSecrets: readonly string[] = []): unknown {
  if (typeof value === "string") return redactText(value, extraSecrets);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, extraSecrets));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const named = isCredentialKey(k);
      out[k] =
        named && typeof v === "string" ? redactCredentialValue(v) : redactJson(v, extraSecrets);
    }
    return out;
  }
  return value;
}

/** String values under credential-named keys, at any depth. */
export function credentialValuesInJson(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) credentialValuesInJson(v, found);
  else if (value && typeof value === "object") {
    for (const k in value) {
      const v = (value as Record<string, unknown>)[k];
      if (isCredentialKey(k) && typeof v === "string")
        found.push(v.replace(/^(Bearer|Basic|Token)\s+/i, ""));
      else credentialValuesInJson(v, found);
    }
  }
  return found;
}

/**
 * Redact a raw body in place, keeping its bytes otherwise exact: secrets found under
 * credential-named JSON keys, the extra secrets given, and key-shaped strings are replaced
 * where they stand in the text. A secret that JSON escaping changed on the wire is caught by
 * a structural pass as a fallback, which re-serializes.
 */
export function redactBody(raw: string, extraSecrets: readonly string[] = []): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    const inEvents = eventCredentialValues(raw);
    return redactText(raw, inEvents.length === 0 ? extraSecrets : [...inEvents, ...extraSecrets]);
  }
  return redactParsedBody(raw, parsed, extraSecrets);
}

/** A credential-named key as JSON spells it, or an escape that may spell one. */
const MAY_NAME_CREDENTIAL = new RegExp(
  `"(?:${[...CREDENTIAL_BODY_KEYS, ...CREDENTIAL_HEADERS, "bearer", "token"].join("|")})"\\s*:|\\\\u`,
  "i",
);

/**
 * Values under credential-named keys in a body that is not one JSON value: a stream, whose
 * SSE `data:` lines or NDJSON lines each are. Only a body that may name one is parsed.
 */
function eventCredentialValues(raw: string): string[] {
  const found: string[] = [];
  if (!MAY_NAME_CREDENTIAL.test(raw)) return found;
  for (const line of raw.split(/\r\n|\r|\n/)) {
    const data = line.startsWith("data:") ? line.slice(5).trimStart() : line;
    if (data[0] !== "{" && data[0] !== "[") continue;
    try {
      credentialValuesInJson(JSON.parse(data), found);
    } catch {
      // Not JSON: the text scan still covers the line.
    }
  }
  return found;
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
  const out = redactText(raw, secrets);
  // redactText reads escapes, so nothing found there means nothing hides in the body.
  if (out === raw && secrets.length === 0) return raw;
  // The in-place text can stop being JSON when a secret also stood outside a string
  // (inside a number, a key spelled with escapes): then re-serialize from the structure.
  let reparsed: unknown;
  try {
    reparsed = JSON.parse(out);
  } catch {
    return JSON.stringify(redactJson(parsed, secrets));
  }
  // A last look at what a reader of the stored JSON gets, escapes undone.
  const plain = JSON.stringify(reparsed);
  const leftover =
    secrets.some((s) => s.length >= 6 && plain.includes(s)) || redactText(plain) !== plain;
  return leftover ? JSON.stringify(redactJson(reparsed, extraSecrets)) : out;
}

/** A request target (`/path?query`) with its query's credentials redacted; the path is kept. */
export function redactRequestTarget(target: string, extraSecrets: readonly string[] = []): string {
  const mark = target.indexOf("?");
  if (mark < 0) return target;
  return `${target.slice(0, mark + 1)}${redactQuery(target.slice(mark + 1), extraSecrets)}`;
}
