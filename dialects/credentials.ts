/**
 * Credentials on the wire: which header, query and body names carry them in each dialect,
 * which string shapes look like provider keys, and how they are redacted. Redaction keeps a
 * short hash, `[REDACTED:<first 8 hex of sha256>]`, so two records can still be compared
 * for equality and a leak check can match a known canary without the secret touching disk.
 */
import { createHash } from "node:crypto";
import { environmentSecrets, isCredentialName } from "./credential-names.ts";
import { stringifyDeep, walkJson } from "./deep-json.ts";
import { embeddedJson, opensLikeJson } from "./embedded-json.ts";
import { decodedText, replaceInView, type ViewSpan } from "./escaped-view.ts";
import { hasKeyPrefix } from "./key-shape-scan-fast.ts";
import { ANY_KEY_SHAPE, KEY_SHAPES } from "./key-shapes.ts";

export { environmentSecrets, isCredentialName } from "./credential-names.ts";
export { KEY_SHAPE_TABLE, KEY_SHAPES } from "./key-shapes.ts";

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
 * A part every credential name holds, any case: the words of credential-names.ts, the
 * headers and body keys above. credentials.test.ts holds every listed name to it.
 */
export const CREDENTIAL_NAME_PARTS =
  "key|token|secret|pass|pwd|credential|auth|cookie|bearer|openai-";

/** Text that may name a credential: one of its parts, or a `\u` escape that may spell one. */
const MAY_HOLD_CREDENTIAL_NAME = new RegExp(`${CREDENTIAL_NAME_PARTS}|\\\\u`, "i");

/**
 * The body spellings of the credential headers that name an account rather than hold a key:
 * OpenAI's `OpenAI-Organization` and `OpenAI-Project`, which its clients take as `organization`
 * and `project` (https://platform.openai.com/docs/api-reference/authentication) and some
 * gateways accept in the body. Top level only: deeper, `project` is a tool argument's name.
 */
export const CREDENTIAL_TOP_LEVEL_BODY_KEYS = ["organization", "project"];

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

/**
 * Values of the environment's credential-named variables (credential-names.ts), redacted in
 * every text like the secrets a caller passes. Read once, when first needed.
 */
let fromEnvironment: readonly string[] | undefined;

function environment(): readonly string[] {
  fromEnvironment ??= environmentSecrets();
  return fromEnvironment;
}

/**
 * The environment's secrets as redaction uses them now: a new list after every refresh, so
 * a cache of redacted text can tell that what it holds was redacted against older secrets.
 */
export function environmentSecretsNow(): readonly string[] {
  return environment();
}

/** Read the environment's secrets again (after the environment changed; tests). */
export function refreshEnvironmentSecrets(env: NodeJS.ProcessEnv = process.env): void {
  fromEnvironment = environmentSecrets(env);
}

/** Secrets shorter than this are not searched for in text: they would hit ordinary words. */
export const MIN_TEXT_SECRET = 6;

function replaceSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_TEXT_SECRET && out.includes(secret)) {
      out = out.split(secret).join(redactionTag(secret));
    }
  }
  return out;
}

/**
 * Whether JSON escapes may hide a secret or key shape from a scan of the bytes: `\u` spells
 * any character, and `\/` (PHP's `json_encode` writes it for every slash) splits an AWS
 * secret, whose 40 characters may hold `/`.
 */
export function mayHideKey(text: string): boolean {
  return text.includes("\\u") || text.includes("\\/");
}

/**
 * Replace every key-shaped substring (and every extra secret given) by its tag, also where
 * the text spells one with escapes (inside a JSON body or a stream's event lines).
 */
export function redactText(text: string, extraSecrets: readonly string[] = []): string {
  const env = environment();
  if (mayHideKey(text)) return redactEscapedText(text, extraSecrets, env);
  let out = replaceSecrets(text, extraSecrets);
  if (env.length > 0) out = replaceSecrets(out, env);
  if (!hasKeyPrefix(out)) return out;
  return out.replace(ANY_KEY_SHAPE, (m) => redactionTag(m));
}

/** The secrets searched for in text: those long enough not to hit ordinary words. */
export function textSecrets(secrets: readonly string[]): string[] {
  return secrets.filter((secret) => secret.length >= MIN_TEXT_SECRET);
}

/**
 * Whether text with escapes holds one of `searched` or a key prefix as a JSON reader decodes
 * it (`searched` as `textSecrets` gives them). The plain reference of escaped-json-fast.ts.
 */
export function foundBehindEscapes(text: string, searched: readonly string[]): boolean {
  const decoded = decodedText(text);
  return hasKeyPrefix(decoded) || searched.some((secret) => decoded.includes(secret));
}

/**
 * `redactText` for text with `\u` escapes: secrets and key shapes are searched in the text
 * as a JSON reader decodes it (escapedView) and replaced where they are spelled. Escapes are
 * rare in traffic (Python's `json.dumps` writes them for non-ASCII), so only such text pays.
 */
function redactEscapedText(
  text: string,
  extraSecrets: readonly string[],
  env: readonly string[],
): string {
  const secrets = env.length === 0 ? extraSecrets : [...extraSecrets, ...env];
  // Escaped text seldom holds a key: one decode rules that out before any span is mapped.
  if (!foundBehindEscapes(text, textSecrets(secrets))) return text;
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_TEXT_SECRET) continue;
    const tag = redactionTag(secret);
    out = replaceInView(out, (view) => occurrences(view, secret, tag));
  }
  for (const shape of KEY_SHAPES) {
    out = replaceInView(out, (view) =>
      hasKeyPrefix(view)
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

/**
 * The headers a client credential rides in, by the providers' and gateways' own names (the
 * lens checks these for leaks). Redaction covers more: any credential-named header.
 */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADER_SET.has(name.toLowerCase());
}

/** A header whose value is redacted whole: a known credential header or a credential name. */
function redactsWhole(name: string): boolean {
  return isCredentialHeader(name) || isCredentialName(name);
}

/**
 * Body keys already judged: a body's keys repeat from request to request (`model`,
 * `messages`, `role`, `content`), and the mock judges every key of every body it records.
 * Bounded in count and key length, since keys come from traffic.
 */
const credentialKeys = new Map<string, boolean>();
const CREDENTIAL_KEY_CACHE_LIMIT = 4096;
const CACHED_KEY_MAX_LENGTH = 64;

/** A JSON key whose string value is a credential: a known body key or a credential name. */
export function isCredentialKey(key: string): boolean {
  let known = credentialKeys.get(key);
  if (known === undefined) {
    known = CREDENTIAL_BODY_KEYS.includes(key) || redactsWhole(key);
    if (key.length <= CACHED_KEY_MAX_LENGTH) {
      if (credentialKeys.size >= CREDENTIAL_KEY_CACHE_LIMIT) credentialKeys.clear();
      credentialKeys.set(key, known);
    }
  }
  return known;
}

/** One header's value as recorded: whole when the name is a credential's, else its text scanned. */
export function redactHeaderValue(
  name: string,
  value: string,
  extraSecrets: readonly string[] = [],
): string {
  return redactsWhole(name) ? redactCredentialValue(value) : redactText(value, extraSecrets);
}

/** A header's name with a key shape standing as a name (`sk-proj-...: 1`) redacted. */
function redactHeaderName(name: string): string {
  return redactText(name);
}

/** Headers as ordered pairs, order kept, credential values and key-shaped names redacted. */
export function redactHeaderPairs(
  pairs: readonly (readonly [string, string])[],
  extraSecrets: readonly string[] = [],
): [string, string][] {
  return pairs.map(([name, value]) => [
    redactHeaderName(name),
    redactHeaderValue(name, value, extraSecrets),
  ]);
}

/**
 * One header as a record keeps it: the name lower-cased (a redacted one left as its tag,
 * which lower case would spoil) and the value redacted.
 */
export function recordedHeaderPair(
  name: string,
  value: string,
  extraSecrets: readonly string[] = [],
): [string, string] {
  const redactedName = redactHeaderName(name);
  return [
    redactedName === name ? name.toLowerCase() : redactedName,
    redactHeaderValue(name, value, extraSecrets),
  ];
}

/** Headers as a record keeps them (`recordedHeaderPair` each), order kept. */
export function recordedHeaderPairs(
  pairs: readonly (readonly [string, string])[],
  extraSecrets: readonly string[] = [],
): [string, string][] {
  return pairs.map(([name, value]) => recordedHeaderPair(name, value, extraSecrets));
}

/**
 * A JSON value with credential-named keys' string values and key-shaped strings redacted,
 * also inside JSON held in its strings (embedded-json.ts). Walked without recursion: a body
 * nested ten thousand deep must not overflow the stack.
 */
export function redactJson(value: unknown, extraSecrets: readonly string[] = []): unknown {
  return walkJson(value, {
    leaf: (v) => (typeof v === "string" ? redactStringValue(v, extraSecrets) : v),
    // A value already redacted in place keeps its tag (a tag of the tag would not match).
    member: (key, v) => {
      if (!isCredentialKey(key) || v === null) return undefined;
      if (typeof v === "string") return isRedactionTag(v) ? v : redactCredentialValue(v);
      // A list or an object under a credential's name (`"passwords": [...]`,
      // `"credentials": {"user": ..., "pass": ...}`): every string in it.
      return typeof v === "object"
        ? walkJson(v, { leaf: tagString, member: () => undefined })
        : undefined;
    },
  });
}

function tagString(v: unknown): unknown {
  return typeof v === "string" && !isRedactionTag(v) ? redactionTag(v) : v;
}

/** Every string a list or an object holds, at any depth (walked with a stack of its own). */
function pushStrings(value: object, found: string[]): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") found.push(v);
    else if (v !== null && typeof v === "object") {
      for (const inner of Object.values(v)) stack.push(inner);
    }
  }
}

/**
 * A string value redacted: JSON it holds with a credential still readable in it is redacted
 * as JSON and written back (its spacing is lost, its secrets are not kept); any other string
 * is scanned as text.
 */
function redactStringValue(value: string, extraSecrets: readonly string[]): string {
  const inner = embeddedWithCredentialName(value);
  if (inner !== undefined && credentialLeft(inner)) {
    return stringifyDeep(redactJson(inner, extraSecrets));
  }
  return redactText(value, extraSecrets);
}

/**
 * The JSON a string holds, where it may name a credential. Most strings are prose, ruled out
 * by their first character; JSON holding none of a credential name's parts (nor an escape)
 * names none, and is not parsed.
 */
function embeddedWithCredentialName(text: string): object | undefined {
  return opensLikeJson(text) && MAY_HOLD_CREDENTIAL_NAME.test(text)
    ? embeddedJson(text)
    : undefined;
}

/** Push the JSON a string holds, so its credential-named keys are walked too. */
function pushEmbedded(stack: unknown[], text: string): void {
  const inner = embeddedWithCredentialName(text);
  if (inner !== undefined) stack.push(inner);
}

/**
 * String values under credential-named keys, at any depth, also inside JSON held in a string
 * (a tool call's arguments), walked without recursion.
 */
export function credentialValuesInJson(value: unknown, found: string[] = []): string[] {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        const inner: unknown = v[i];
        if (typeof inner === "string") pushEmbedded(stack, inner);
        else if (inner !== null && typeof inner === "object") stack.push(inner);
      }
    } else if (v && typeof v === "object") {
      // Keys, not entries: the mock walks every body it records, and entries made an array
      // per member. Only objects are pushed: a scalar would be popped to no effect.
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] as string;
        const inner = (v as Record<string, unknown>)[k];
        if (typeof inner === "string") {
          if (isCredentialKey(k)) found.push(inner.replace(/^(Bearer|Basic|Token)\s+/i, ""));
          else pushEmbedded(stack, inner);
        } else if (inner !== null && typeof inner === "object") {
          if (isCredentialKey(k)) pushStrings(inner, found);
          else stack.push(inner);
        }
      }
    }
  }
  return found;
}

/** Whether a value under a credential-named key is still readable (not a tag). */
export function credentialLeft(parsed: unknown): boolean {
  return credentialValuesInJson(parsed).some((v) => v !== "" && !isRedactionTag(v));
}
