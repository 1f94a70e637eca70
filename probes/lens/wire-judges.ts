/**
 * Judges over the wire itself rather than the canonical model: headers forwarded or not,
 * the forwarded path against the backend's documented route, and client credentials found
 * anywhere in the forwarded request (by value or by the redaction tag of the value).
 */
import {
  CREDENTIAL_BODY_KEYS,
  CREDENTIAL_QUERY_PARAMS,
  isCredentialHeader,
  isRedactionTag,
  redactionTag,
} from "../../dialects/credentials.ts";
import type { Dialect } from "../../dialects/dialect.ts";
import { isRecord } from "../../dialects/json.ts";
import { DIALECT_ROUTES, dialectOfPath } from "../../dialects/routes.ts";
import { type HeaderPairs, headerValue, type WireRequest } from "../exchange.ts";
import type { Verdict } from "../verdict.ts";
import { show, verdict } from "./describe.ts";
import { type CredentialPlace, credentialField, headerField, PATH_FIELD } from "./field-names.ts";
import { noEquivalent } from "./no-equivalent.ts";

/** Headers judged by default when the client sent them (any header can be asked for by field). */
export const JUDGED_HEADERS = [
  "anthropic-beta",
  "anthropic-version",
  "openai-beta",
  "idempotency-key",
  "user-agent",
] as const;

/** Headers whose value is a comma list where order carries no meaning. */
const LIST_HEADERS = new Set(["anthropic-beta", "openai-beta"]);

function listOf(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .sort();
}

export function judgeHeader(
  name: string,
  client: HeaderPairs,
  forwarded: HeaderPairs,
  backend: Dialect,
): Verdict | undefined {
  const lower = name.toLowerCase();
  const field = headerField(lower);
  const sent = headerValue(client, lower);
  if (sent === undefined) return undefined;
  const got = headerValue(forwarded, lower);
  const detail = `${field}: ${show(sent)} → ${show(got)}`;
  if (got === undefined) {
    const row = noEquivalent("request", field, backend);
    return row
      ? verdict("request", field, "no-equivalent", `${detail} (${backend}: ${row.reason})`)
      : verdict("request", field, "dropped", detail);
  }
  if (got === sent) return verdict("request", field, "preserved", detail);
  if (LIST_HEADERS.has(lower)) {
    const have = new Set(listOf(got));
    const missing = listOf(sent).filter((item) => !have.has(item));
    if (missing.length === 0) return verdict("request", field, "preserved", detail);
    return verdict("request", field, "mangled", `${detail} (lost ${missing.join(", ")})`);
  }
  return verdict("request", field, "mangled", detail, "replaced");
}

/**
 * The forwarded path must be the backend dialect's documented generate route; a doubled
 * version prefix (`/v1/v1/...`) or another route is mangled.
 */
export function judgePath(clientPath: string, forwarded: WireRequest, backend: Dialect): Verdict {
  const [path = "", query = ""] = forwarded.path.split("?");
  const routes = DIALECT_ROUTES[backend];
  const match = dialectOfPath(path);
  const model = encodeURIComponent(match?.model ?? "");
  const plain = routes.generate(model);
  const stream = routes.generateStream(model);
  const [streamPath = "", streamQuery = ""] = stream.split("?");
  const detail = `${PATH_FIELD}: ${show(clientPath)} → ${show(forwarded.path)}`;
  if (path === plain)
    return verdict("request", PATH_FIELD, "preserved", `${detail} (the ${backend} route)`);
  if (path === streamPath) {
    const params = new Set(query.split("&"));
    if (streamQuery === "" || params.has(streamQuery)) {
      return verdict("request", PATH_FIELD, "preserved", `${detail} (the ${backend} stream route)`);
    }
    return verdict(
      "request",
      PATH_FIELD,
      "mangled",
      `${detail} (expected ?${streamQuery})`,
      "missing-query",
    );
  }
  return verdict(
    "request",
    PATH_FIELD,
    "mangled",
    `${detail} (expected ${show(plain)})`,
    "wrong-route",
  );
}

export interface ClientCredential {
  place: CredentialPlace;
  name: string;
  /** The value as the client request carries it (raw, or a redaction tag if recorded redacted). */
  value: string;
}

const SCHEME = /^(Bearer|Basic|Token)\s+/i;

function bodyCredentials(value: unknown, path: string, out: ClientCredential[]): void {
  if (Array.isArray(value)) {
    for (const item of value) bodyCredentials(item, path, out);
    return;
  }
  if (!isRecord(value)) return;
  // for-in rather than Object.entries: this walks every object of the client body.
  for (const key in value) {
    const v = value[key];
    const named = CREDENTIAL_BODY_KEYS.includes(key) || isCredentialHeader(key);
    if (named && typeof v === "string" && v !== "") {
      out.push({ place: "body", name: path + key, value: v.replace(SCHEME, "") });
    } else if (typeof v === "object" && v !== null) {
      bodyCredentials(v, `${path}${key}.`, out);
    }
  }
}

/** Found once per request, kept under a non-enumerable symbol (see request-view.ts). */
const FOUND = Symbol("credentials");
type WithCredentials = WireRequest & { [FOUND]?: ClientCredential[] };

/** Every credential the client request carries: credential headers, query keys, body keys. */
export function clientCredentials(request: WireRequest): ClientCredential[] {
  const cached = (request as WithCredentials)[FOUND];
  if (cached) return cached;
  const out: ClientCredential[] = [];
  for (const [name, value] of request.headers) {
    if (isCredentialHeader(name) && value !== "") {
      out.push({ place: "header", name, value: value.replace(SCHEME, "") });
    }
  }
  if (request.path.includes("?")) {
    const query = request.path.split("?")[1] ?? "";
    for (const pair of query.split("&")) {
      const eq = pair.indexOf("=");
      if (eq < 0) continue;
      const name = decodeURIComponent(pair.slice(0, eq));
      if ((CREDENTIAL_QUERY_PARAMS as readonly string[]).includes(name.toLowerCase())) {
        out.push({ place: "query", name, value: decodeURIComponent(pair.slice(eq + 1)) });
      }
    }
  }
  bodyCredentials(request.body, "", out);
  if (Object.isExtensible(request)) {
    Object.defineProperty(request, FOUND, { value: out, enumerable: false });
  }
  return out;
}

function masked(value: string): string {
  if (isRedactionTag(value)) return value;
  return value.length > 8 ? `${value.slice(0, 4)}…${value.slice(-4)}` : "…";
}

/** Where in the forwarded request a needle appears, or undefined. */
function findIn(forwarded: WireRequest, needles: string[]): string | undefined {
  for (const [name, value] of forwarded.headers) {
    if (needles.some((n) => value.includes(n))) return `header ${name}`;
  }
  const query = forwarded.path.split("?")[1] ?? "";
  if (needles.some((n) => query.includes(n) || safeDecode(query).includes(n))) return "query";
  if (needles.some((n) => forwarded.rawBody.includes(n))) return "body";
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Tags of recently seen values: a sweep judges the same few client keys again and again. */
const tags = new Map<string, string>();

function tagOf(value: string): string {
  let tag = tags.get(value);
  if (tag === undefined) {
    if (tags.size >= 256) tags.clear();
    tag = redactionTag(value);
    tags.set(value, tag);
  }
  return tag;
}

/**
 * A client credential must not reach the backend. Matched by value and by redaction tag;
 * `secrets` are the raw values behind tags in a redacted recording.
 */
export function judgeCredential(
  credential: ClientCredential,
  forwarded: readonly WireRequest[],
  secrets: readonly string[],
): Verdict {
  const field = credentialField(credential.place, credential.name);
  const tag = isRedactionTag(credential.value) ? credential.value : tagOf(credential.value);
  const needles = [tag];
  if (!isRedactionTag(credential.value) && credential.value.length >= 6)
    needles.push(credential.value);
  for (const secret of secrets) {
    if (secret.length >= 6 && tagOf(secret) === tag) needles.push(secret);
  }
  for (const record of forwarded) {
    const where = findIn(record, needles);
    if (where) {
      return verdict(
        "request",
        field,
        "leaked",
        `${field}: ${show(masked(credential.value))} → forwarded ${where}`,
      );
    }
  }
  return verdict(
    "request",
    field,
    "preserved",
    `${field}: ${show(masked(credential.value))} → not forwarded`,
  );
}
