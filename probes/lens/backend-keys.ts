/**
 * Where a backend dialect keeps a value attribute on the wire, so the lens can tell a field
 * the gateway left out from one it sent in a shape the backend does not define. The readers
 * keep a value they cannot parse raw in `extras` under its own key (dialects/canonical.ts);
 * a value found there is present but malformed (`"stop_sequences":"STOPPROBE"`, a string
 * where Anthropic requires an array), which is `mangled`, not `dropped`. The keys are a view
 * of the backend's field table (`dialects/<d>/fields.ts`): every row whose path is plain keys
 * (vendor extensions left out), spelled as the reader leaves them in extras.
 */
import type { RequestAttribute } from "../../dialects/attributes.ts";
import type { CanonicalRequest } from "../../dialects/canonical.ts";
import type { Dialect } from "../../dialects/dialect.ts";
import { isSpelling } from "../../dialects/field-table.ts";
import { isRecord } from "../../dialects/json.ts";
import { dialectModule } from "../../dialects/registry.ts";

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
