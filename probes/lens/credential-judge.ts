/**
 * Client credentials found anywhere in the forwarded request (by value or by the redaction
 * tag of the value): a leak with its surface, or clean when the gateway kept the key.
 */

import { findSecretIn } from "../../dialects/credential-found.ts";
import { safeDecode } from "../../dialects/credential-url.ts";
import {
  CREDENTIAL_BODY_KEYS,
  CREDENTIAL_QUERY_PARAMS,
  CREDENTIAL_TOP_LEVEL_BODY_KEYS,
  isCredentialHeader,
  isRedactionTag,
  redactionTag,
} from "../../dialects/credentials.ts";
import { type ClientDialect, DIALECTS } from "../../dialects/dialect.ts";
import { isRecord } from "../../dialects/json.ts";
import { dialectModule } from "../../dialects/registry.ts";
import type { Cause } from "../causes.ts";
import type { ExchangeRequest } from "../exchange.ts";
import type { Verdict } from "../verdict.ts";
import { show, verdict } from "./describe.ts";
import { type CredentialPlace, credentialField } from "./field-names.ts";
import { RecentByIdentity } from "./recent-by-identity.ts";

export interface ClientCredential {
  place: CredentialPlace;
  name: string;
  /** The value as the client request carries it (raw, or a redaction tag if recorded redacted). */
  value: string;
}

const SCHEME = /^(Bearer|Basic|Token)\s+/i;

/**
 * Whether a body key names a credential, remembered per key: the walk asks for every key of
 * every client body (message `role`, `content`, `type`, ... again and again), and a Map hit on
 * a key JSON.parse interned is cheaper than the list scan and lower-casing (bounded, since
 * keys come from traffic).
 */
const credentialKeys = new Map<string, boolean>();

function isCredentialKey(key: string): boolean {
  let named = credentialKeys.get(key);
  if (named === undefined) {
    named = CREDENTIAL_BODY_KEYS.includes(key) || isCredentialHeader(key);
    if (credentialKeys.size >= 1024) credentialKeys.clear();
    credentialKeys.set(key, named);
  }
  return named;
}

/** `a.b.` for the keys `a`, `b` above a body value: spelled only for a credential found. */
function bodyPath(keys: readonly string[]): string {
  let path = "";
  for (const key of keys) path += `${key}.`;
  return path;
}

/**
 * `keys` are the object keys down to `value` (arrays add none), kept on one stack rather
 * than a path string built for every nested object of every client body (430 instructions
 * per typical exchange; docs/lens.md, Round 5).
 */
function bodyCredentials(
  value: unknown,
  keys: string[],
  out: ClientCredential[],
  values: ValueKeys | undefined,
): void {
  if (Array.isArray(value)) {
    for (const item of value) bodyCredentials(item, keys, out, values);
    return;
  }
  if (!isRecord(value)) return;
  const ofValue = values?.get(value);
  // for-in rather than Object.entries: this walks every object of the client body.
  for (const key in value) {
    const v = value[key];
    if (ofValue?.includes(key)) continue;
    if (typeof v === "string") {
      const named =
        isCredentialKey(key) || (keys.length === 0 && CREDENTIAL_TOP_LEVEL_BODY_KEYS.includes(key));
      if (v !== "" && named) {
        out.push({ place: "body", name: bodyPath(keys) + key, value: v.replace(SCHEME, "") });
      }
    } else if (typeof v === "object" && v !== null) {
      keys.push(key);
      bodyCredentials(v, keys, out, values);
      keys.pop();
    }
  }
}

/** The credential keys of a body's records that are part of a request value, by record. */
type ValueKeys = Map<object, readonly string[]>;

/**
 * The client credentials of a request in `dialect`: credential headers, query parameters and
 * body keys, less the credentials the client sends for the provider as part of a modelled
 * value (an MCP server's token: the dialect's `valueCredentials`), which are judged by value
 * with that attribute (docs/lens.md, "A credential meant for the provider is a value").
 */
export function clientCredentials(
  request: ExchangeRequest,
  dialect?: ClientDialect,
): ClientCredential[] {
  const slot = credentials.get(request);
  if (slot.list === undefined || slot.dialect !== dialect) {
    slot.dialect = dialect;
    slot.list = findClientCredentials(request, dialect);
  }
  return slot.list;
}

/**
 * `judgeReadAll` asks once for the full pass and again for the probe's field: kept by
 * identity (recent-by-identity.ts), with the dialect they were found for.
 */
const credentials = new RecentByIdentity(
  (_: ExchangeRequest): { dialect?: ClientDialect; list?: ClientCredential[] } => ({}),
);

function valueKeys(
  request: ExchangeRequest,
  dialect: ClientDialect | undefined,
): ValueKeys | undefined {
  const find = dialect && dialectModule(dialect).request.valueCredentials;
  if (!find || !isRecord(request.body)) return undefined;
  const found = find(request.body);
  return found.length === 0 ? undefined : new Map(found.map((c) => [c.holder, c.keys]));
}

function findClientCredentials(
  request: ExchangeRequest,
  dialect: ClientDialect | undefined,
): ClientCredential[] {
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
      const name = safeDecode(pair.slice(0, eq));
      if ((CREDENTIAL_QUERY_PARAMS as readonly string[]).includes(name.toLowerCase())) {
        out.push({ place: "query", name, value: safeDecode(pair.slice(eq + 1)) });
      }
    }
  }
  bodyCredentials(request.body, [], out, valueKeys(request, dialect));
  return out;
}

function masked(value: string): string {
  if (isRedactionTag(value)) return value;
  return value.length > 8 ? `${value.slice(0, 4)}…${value.slice(-4)}` : "…";
}

/**
 * Headers a backend authenticates a request with: every dialect's own (`authorization`,
 * `x-api-key`, `x-goog-api-key`: the dialect modules' `auth`), a proxy's
 * (`proxy-authorization`, RFC 9110 §11.7.1) and Azure OpenAI's `api-key`
 * (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/reference#authentication).
 */
const AUTH_HEADERS: ReadonlySet<string> = new Set([
  ...DIALECTS.map((d) => dialectModule(d).auth.header),
  "proxy-authorization",
  "api-key",
]);

/** Where a credential was found: the place for the reason and the surface for the cause. */
interface Found {
  where: string;
  cause: Cause;
}

/** Where in the forwarded request a needle appears, or undefined. */
function findIn(forwarded: ExchangeRequest, needles: readonly string[]): Found | undefined {
  const found = findSecretIn(
    { headers: forwarded.headers, path: forwarded.path, body: forwarded.rawBody },
    needles,
  );
  if (found?.place === "header") {
    const cause = AUTH_HEADERS.has(found.name) ? "in-auth-header" : "in-other-header";
    return { where: `header ${found.name}`, cause };
  }
  if (found?.place === "query") return { where: "query", cause: "in-query" };
  if (found?.place === "body") return { where: "body", cause: "in-body" };
  return undefined;
}

/**
 * A client credential must not reach the backend. Matched by value and by redaction tag;
 * `secrets` are the raw values behind tags in a redacted recording.
 */
export function judgeCredential(
  credential: ClientCredential,
  forwarded: readonly ExchangeRequest[],
  secrets: readonly string[],
): Verdict {
  const field = credentialField(credential.place, credential.name);
  const tag = isRedactionTag(credential.value) ? credential.value : redactionTag(credential.value);
  const needles = [tag];
  if (!isRedactionTag(credential.value) && credential.value.length >= 6)
    needles.push(credential.value);
  for (const secret of secrets) {
    if (secret.length >= 6 && redactionTag(secret) === tag) needles.push(secret);
  }
  const base = { direction: "request", subject: field, field } as const;
  const shown = show(masked(credential.value));
  for (const record of forwarded) {
    const found = findIn(record, needles);
    if (found) {
      const detail = `${shown} → forwarded ${found.where}`;
      return verdict({ ...base, kind: "leaked", detail, cause: found.cause });
    }
  }
  // Found nowhere: the credential stayed with the gateway, which is what it should do (clean,
  // never `dropped`: a client key is not a value the backend is owed).
  return verdict({ ...base, kind: "preserved", detail: `${shown} → not forwarded` });
}

/**
 * An unknown body key's value with the client credentials in it taken out (the keys the walk
 * above names: credential-named at any depth, `organization` and `project` at the top level),
 * or `undefined` when nothing else is left. Those credentials are judged by the credential
 * rule alone (leaked where they arrived, clean where they did not), so the key that held them
 * is judged as an extra only on what else it carries: a body `api_key` stripped by the gateway
 * is clean, never `dropped` (docs/lens.md, "A client credential is `leaked` wherever it
 * reached the backend").
 */
export function withoutClientCredentials(key: string, value: unknown): unknown {
  const named = isCredentialKey(key) || CREDENTIAL_TOP_LEVEL_BODY_KEYS.includes(key);
  if (named && typeof value === "string" && value !== "") return undefined;
  return strippedOfCredentials(value);
}

function strippedOfCredentials(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strippedOfCredentials);
  if (!isRecord(value)) return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const v = value[key];
    if (typeof v === "string" && v !== "" && isCredentialKey(key)) {
      changed = true;
      continue;
    }
    const kept = strippedOfCredentials(v);
    if (kept !== v) changed = true;
    if (kept !== undefined) out[key] = kept;
  }
  if (!changed) return value;
  return Object.keys(out).length === 0 ? undefined : out;
}
