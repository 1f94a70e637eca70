/**
 * Where a backend dialect keeps a value attribute on the wire, so the lens can tell a field
 * the gateway left out from one it sent in a shape the backend does not define. The readers
 * keep a value they cannot parse raw in `extras` under its own key (dialects/canonical.ts);
 * a value found there is present but malformed (`"stop_sequences":"STOPPROBE"`, a string
 * where Anthropic requires an array), which is `mangled`, not `dropped`. The keys are a view
 * of the backend's field table (`dialects/<d>/fields.ts`): every row whose path is plain keys
 * (vendor extensions left out), spelled as the reader leaves them in extras.
 *
 * The other way round, a value the backend's reader did not find may sit under a key the
 * backend does not define at all: another dialect's spelling of the attribute (Chat's `stop`
 * in an Anthropic body), where the backend never reads it. `foreignValue` finds it there
 * (issue 20: `mangled`, cause `foreign-key`).
 */
import type { RequestAttribute } from "../../dialects/attributes.ts";
import type { CanonicalRequest } from "../../dialects/canonical.ts";
import { DIALECTS, type Dialect } from "../../dialects/dialect.ts";
import { isSpelling } from "../../dialects/field-table.ts";
import { isRecord } from "../../dialects/json.ts";
import { dialectModule } from "../../dialects/registry.ts";
import { sameValue } from "./describe.ts";

/** A dotted path of plain keys (no `[]` steps or role selectors). */
const PLAIN_PATH = /^[A-Za-z_]+(\.[A-Za-z_]+)*$/;

/** Paths per backend and attribute, worked out once: the judge asks for every absent value. */
const pathCache = new Map<Dialect, Map<RequestAttribute, readonly string[]>>();

/** The wire paths under which `backend` carries `attribute` (a field and its aliases). */
export function backendPaths(attribute: RequestAttribute, backend: Dialect): readonly string[] {
  let byAttribute = pathCache.get(backend);
  if (!byAttribute) {
    byAttribute = new Map();
    pathCache.set(backend, byAttribute);
  }
  let paths = byAttribute.get(attribute);
  if (!paths) {
    paths = pathsOf(attribute, backend);
    byAttribute.set(attribute, paths);
  }
  return paths;
}

/** Each path's keys, split once. */
const stepCache = new Map<string, readonly string[]>();

function stepsOf(path: string): readonly string[] {
  let steps = stepCache.get(path);
  if (!steps) {
    steps = path.split(".");
    stepCache.set(path, steps);
  }
  return steps;
}

function pathsOf(attribute: RequestAttribute, backend: Dialect): string[] {
  const out: string[] = [];
  for (const row of dialectModule(backend).fields.rows) {
    if (row.attribute !== attribute || !isSpelling(row)) continue;
    for (const path of [row.path, ...(row.aliases ?? [])])
      if (PLAIN_PATH.test(path)) out.push(path);
  }
  return out;
}

function at(record: Record<string, unknown>, path: string): unknown {
  let here: unknown = record;
  for (const key of stepsOf(path)) {
    if (!isRecord(here) || !Object.hasOwn(here, key)) return undefined;
    here = here[key];
  }
  return here;
}

/** An object with no keys: a container sent empty carries no value (`functionCallingConfig: {}`). */
function emptyObject(value: unknown): boolean {
  if (!isRecord(value)) return false;
  for (const _ in value) return false;
  return true;
}

/**
 * The raw value the forwarded request holds under the backend's own key for `attribute`
 * when its reader could not read it (kept in extras), with the path it was found under. An
 * empty object there says nothing, so it is no value at all (the attribute is absent).
 */
export function malformedValue(
  attribute: RequestAttribute,
  forwarded: CanonicalRequest,
): { path: string; raw: unknown } | undefined {
  for (const path of backendPaths(attribute, forwarded.dialect)) {
    const raw = at(forwarded.extras, path);
    if (raw !== undefined && !emptyObject(raw)) return { path, raw };
  }
  return undefined;
}

/** The top-level key of a path (`messages[role=system]` → `messages`). */
function topKey(path: string): string {
  return /^[A-Za-z_]+/.exec(path)?.[0] ?? path;
}

const definedCache = new Map<Dialect, ReadonlySet<string>>();

/**
 * The top-level keys a dialect's field table names, every row counted (spellings, vendor
 * extensions, carriers): a key here is one the dialect defines, whatever it holds.
 */
function definedKeys(dialect: Dialect): ReadonlySet<string> {
  let keys = definedCache.get(dialect);
  if (!keys) {
    const out = new Set<string>();
    for (const row of dialectModule(dialect).fields.rows) {
      out.add(topKey(row.path));
      for (const alias of row.aliases ?? []) out.add(topKey(alias));
    }
    keys = out;
    definedCache.set(dialect, keys);
  }
  return keys;
}

/** Whether `backend` defines no top-level key of that name (its field table names none). */
export function isForeignKey(path: string, backend: Dialect): boolean {
  return !definedKeys(backend).has(topKey(path));
}

const foreignCache = new Map<Dialect, Map<RequestAttribute, readonly string[]>>();

/**
 * Every other dialect's plain spelling of `attribute` (its field and aliases, vendor extensions
 * included: a gateway may write Chat's `top_k` anywhere) whose top-level key `backend` does not
 * define. A row that carries the attribute in another attribute's field (`via`) is left out: its
 * key is that attribute's spelling.
 */
function foreignPaths(attribute: RequestAttribute, backend: Dialect): readonly string[] {
  let byAttribute = foreignCache.get(backend);
  if (!byAttribute) {
    byAttribute = new Map();
    foreignCache.set(backend, byAttribute);
  }
  let paths = byAttribute.get(attribute);
  if (!paths) {
    const out = new Set<string>();
    for (const dialect of DIALECTS) {
      if (dialect === backend) continue;
      for (const row of dialectModule(dialect).fields.rows) {
        if (row.attribute !== attribute || row.via !== undefined) continue;
        for (const path of [row.path, ...(row.aliases ?? [])]) {
          if (PLAIN_PATH.test(path) && isForeignKey(path, backend)) out.add(path);
        }
      }
    }
    paths = [...out];
    byAttribute.set(attribute, paths);
  }
  return paths;
}

/**
 * A value for `attribute` the forwarded request holds under a key its dialect does not define
 * (another dialect's spelling), with the path it was found under. Null and an empty object
 * there carry nothing.
 */
export function foreignValue(
  attribute: RequestAttribute,
  forwarded: CanonicalRequest,
): { path: string; raw: unknown } | undefined {
  for (const path of foreignPaths(attribute, forwarded.dialect)) {
    const raw = at(forwarded.extras, path);
    if (raw !== undefined && raw !== null && !emptyObject(raw)) return { path, raw };
  }
  return undefined;
}

/**
 * Whether a sent value is distinctive enough that finding it elsewhere means it was carried
 * there, not met by chance: a string of 4 characters or more (a probe's canary, `STOPPROBE`), a
 * non-empty list or object. Flags and small numbers are met everywhere.
 */
function distinctive(value: unknown): boolean {
  if (typeof value === "string") return value.length >= 4;
  if (Array.isArray(value)) return value.length > 0;
  return isRecord(value) && !emptyObject(value);
}

/** How deep the canary search walks into a foreign key's value (bytes of a gateway, not ours). */
const CANARY_DEPTH = 8;

function holds(value: unknown, sent: unknown, depth: number): boolean {
  if (sameValue(value, sent)) return true;
  if (depth === 0) return false;
  if (Array.isArray(value)) return value.some((v) => holds(v, sent, depth - 1));
  if (!isRecord(value)) return false;
  for (const key in value) {
    if (Object.hasOwn(value, key) && holds(value[key], sent, depth - 1)) return true;
  }
  return false;
}

/**
 * The sent value itself found under a top-level key the backend does not define, at any depth
 * there (the canary: `{"stopSequences": ["STOPPROBE"]}` at the top of a Gemini body, where
 * Gemini reads it only inside `generationConfig`), with the key. `skip` names keys the client
 * itself sent unknown (passed through as they came, judged as extras on their own).
 */
export function foreignCanary(
  sent: unknown,
  forwarded: CanonicalRequest,
  skip: Record<string, unknown>,
): { path: string; raw: unknown } | undefined {
  if (!distinctive(sent)) return undefined;
  for (const key in forwarded.extras) {
    if (!Object.hasOwn(forwarded.extras, key) || Object.hasOwn(skip, key)) continue;
    if (!isForeignKey(key, forwarded.dialect)) continue;
    const raw = forwarded.extras[key];
    if (holds(raw, sent, CANARY_DEPTH)) return { path: key, raw };
  }
  return undefined;
}
