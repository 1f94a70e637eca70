/**
 * Where a backend dialect keeps a value attribute on the wire, so the lens can tell a field
 * the gateway left out from one it sent in a shape the backend does not define. The readers
 * keep a value they cannot parse raw in `extras` under its own key (dialects/canonical.ts);
 * a value found there is present but malformed (`"stop_sequences":"STOPPROBE"`, a string
 * where Anthropic requires an array), which is `mangled`, not `dropped`.
 *
 * The client dialects (Anthropic, Chat, Responses) are also backends: their keys come from
 * the spelling table. Gemini and Ollama are backends only, so their keys are listed here,
 * spelled as their readers leave them in extras (Gemini containers camelCased).
 */
import type { CanonicalRequest } from "../../dialects/canonical.ts";
import { type ClientDialect, type Dialect, isClientDialect } from "../../dialects/dialect.ts";
import { isRecord } from "../../dialects/json.ts";
import type { RequestAttribute } from "./field-names.ts";
import { REQUEST_FIELD_NAMES } from "./request-spellings.ts";

interface BackendKey {
  /** Dotted path from the body's top level. */
  path: string;
  see: string;
}

const GENERATION_CONFIG = "https://ai.google.dev/api/generate-content#generationconfig";
const THINKING_CONFIG = "https://ai.google.dev/api/generate-content#ThinkingConfig";
const OLLAMA_OPTIONS =
  "https://github.com/ollama/ollama/blob/main/docs/modelfile.md#valid-parameters-and-values";

type BackendOnly = Exclude<Dialect, ClientDialect>;

/** Value attributes of the backend-only dialects, by their wire path. */
export const BACKEND_KEYS = {
  gemini: {
    "sampling.temperature": { path: "generationConfig.temperature", see: GENERATION_CONFIG },
    "sampling.top-p": { path: "generationConfig.topP", see: GENERATION_CONFIG },
    "sampling.top-k": { path: "generationConfig.topK", see: GENERATION_CONFIG },
    "sampling.max-tokens": { path: "generationConfig.maxOutputTokens", see: GENERATION_CONFIG },
    "sampling.stop": { path: "generationConfig.stopSequences", see: GENERATION_CONFIG },
    "sampling.seed": { path: "generationConfig.seed", see: GENERATION_CONFIG },
    "sampling.presence-penalty": {
      path: "generationConfig.presencePenalty",
      see: GENERATION_CONFIG,
    },
    "sampling.frequency-penalty": {
      path: "generationConfig.frequencyPenalty",
      see: GENERATION_CONFIG,
    },
    "sampling.n": { path: "generationConfig.candidateCount", see: GENERATION_CONFIG },
    "reasoning.budget-tokens": {
      path: "generationConfig.thinkingConfig.thinkingBudget",
      see: THINKING_CONFIG,
    },
  },
  ollama: {
    "sampling.temperature": { path: "options.temperature", see: OLLAMA_OPTIONS },
    "sampling.top-p": { path: "options.top_p", see: OLLAMA_OPTIONS },
    "sampling.top-k": { path: "options.top_k", see: OLLAMA_OPTIONS },
    "sampling.max-tokens": { path: "options.num_predict", see: OLLAMA_OPTIONS },
    "sampling.stop": { path: "options.stop", see: OLLAMA_OPTIONS },
    "sampling.seed": { path: "options.seed", see: OLLAMA_OPTIONS },
    "sampling.presence-penalty": { path: "options.presence_penalty", see: OLLAMA_OPTIONS },
    "sampling.frequency-penalty": { path: "options.frequency_penalty", see: OLLAMA_OPTIONS },
  },
} as const satisfies Record<BackendOnly, Partial<Record<RequestAttribute, BackendKey>>>;

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
  if (isClientDialect(backend)) {
    const row = REQUEST_FIELD_NAMES[backend][attribute];
    if (!row) return [];
    return [row.field, ...(row.aliases ?? [])].filter((p) => PLAIN_PATH.test(p));
  }
  const row: BackendKey | undefined = (
    BACKEND_KEYS[backend] as Partial<Record<RequestAttribute, BackendKey>>
  )[attribute];
  return row ? [row.path] : [];
}

function at(record: Record<string, unknown>, path: string): unknown {
  let here: unknown = record;
  for (const key of stepsOf(path)) {
    if (!isRecord(here) || !Object.hasOwn(here, key)) return undefined;
    here = here[key];
  }
  return here;
}

/**
 * The raw value the forwarded request holds under the backend's own key for `attribute`
 * when its reader could not read it (kept in extras), with the path it was found under.
 */
export function malformedValue(
  attribute: RequestAttribute,
  forwarded: CanonicalRequest,
): { path: string; raw: unknown } | undefined {
  for (const path of backendPaths(attribute, forwarded.dialect)) {
    const raw = at(forwarded.extras, path);
    if (raw !== undefined) return { path, raw };
  }
  return undefined;
}
