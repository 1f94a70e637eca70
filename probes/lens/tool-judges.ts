/**
 * Judges for tools and tool turns: call ids and their links to results, result content,
 * and tool schemas (where keys a client never sent count as invented).
 */
import type { CanonicalRequest, Part } from "../../dialects/canonical.ts";
import type { Dialect } from "../../dialects/dialect.ts";
import { isRecord } from "../../dialects/json.ts";
import { dialectModule } from "../../dialects/registry.ts";
import { mediaKey } from "./content-judges.ts";
import { sameValue, show, showChange } from "./describe.ts";
import type { Judgement } from "./judgement.ts";
import { requestNoEquivalent } from "./no-equivalent.ts";
import { conversation, normalizeText, toolResultParts } from "./request-view.ts";

interface ToolTurns {
  callIds: string[];
  resultIds: string[];
}

function toolTurns(req: CanonicalRequest): ToolTurns {
  const callIds: string[] = [];
  const resultIds: string[] = [];
  for (const m of conversation(req)) {
    for (const p of m.parts) {
      if (p.type === "tool-call") callIds.push(p.id);
      else if (p.type === "tool-result") resultIds.push(p.callId);
    }
  }
  return { callIds, resultIds };
}

/**
 * The new id of each client call, by position, when the calls pair up one to one with
 * distinct new ids; undefined when they cannot (a call lost, two calls given one id).
 */
function renaming(sent: ToolTurns, got: ToolTurns): Map<string, string> | undefined {
  if (sent.callIds.length !== got.callIds.length) return undefined;
  const rename = new Map<string, string>();
  const taken = new Set<string>();
  for (let i = 0; i < sent.callIds.length; i++) {
    const id = sent.callIds[i] as string;
    const next = got.callIds[i] as string;
    // An absent id (a reader's "") is no new name: nothing can follow it.
    if (next === NO_ID || rename.has(id) || taken.has(next)) return undefined;
    rename.set(id, next);
    taken.add(next);
  }
  return rename;
}

/**
 * Whether every result names its call's id as forwarded (the old id where the call has none).
 * Two absent ids never link: an absent id names no call.
 */
function resultsFollow(sent: ToolTurns, got: ToolTurns, rename: Map<string, string>): boolean {
  if (sent.resultIds.length !== got.resultIds.length) return false;
  return sent.resultIds.every((id, i) => {
    const now = got.resultIds[i];
    return now !== NO_ID && (rename.get(id) ?? id) === now;
  });
}

/**
 * What a reader gives for an id the wire left out (Gemini's `functionCall.id` and
 * `functionResponse.id` are optional): absent, never a rename to "".
 */
const NO_ID = "";

/** Ids the client sent that arrived absent (the reader's ""), by position; 0 when none did. */
function idsLost(sent: readonly string[], got: readonly string[]): number {
  let lost = 0;
  for (let i = 0; i < got.length; i++) if (got[i] === NO_ID && sent[i] !== NO_ID) lost += 1;
  return lost;
}

/**
 * A call's own id (`tool_use.id`, `tool_calls[].id`): unchanged is preserved, whatever became
 * of the results (those are judged under the result's field); rewritten one to one with
 * every result following the new id still links (cause `rewritten-linked`); any other
 * change breaks the link.
 */
export function judgeCallIds(client: CanonicalRequest, forwarded: CanonicalRequest): Judgement {
  const sent = toolTurns(client);
  const got = toolTurns(forwarded);
  const detail = showChange(sent.callIds, got.callIds);
  if (got.callIds.length === 0 || idsLost(sent.callIds, got.callIds) === got.callIds.length) {
    return { absent: true, detail: `${show(sent.callIds)} → absent` };
  }
  if (sameValue(sent.callIds, got.callIds)) return { kind: "preserved", detail };
  const rename = renaming(sent, got);
  return rename && resultsFollow(sent, got, rename)
    ? { kind: "preserved", detail, cause: "rewritten-linked" }
    : { kind: "mangled", detail, cause: "unlinked" };
}

/**
 * A result's link to its call (`tool_use_id`, `tool_call_id`, Gemini `functionResponse.id`):
 * each result must name its call's id as forwarded. Following a one-to-one rewrite is
 * preserved (`rewritten-linked`); an empty, stale or foreign id is `mangled` (`unlinked`).
 * Gemini documents the id as "populated by the client to match the corresponding function
 * call id": https://ai.google.dev/api/caching#FunctionResponse
 */
export function judgeResultIds(client: CanonicalRequest, forwarded: CanonicalRequest): Judgement {
  const sent = toolTurns(client);
  const got = toolTurns(forwarded);
  const misnamed = misnamedResults(client, forwarded);
  if (misnamed) return { kind: "mangled", detail: misnamed, cause: "unlinked" };
  const detail = showChange(sent.resultIds, got.resultIds);
  if (
    got.resultIds.length === 0 ||
    idsLost(sent.resultIds, got.resultIds) === got.resultIds.length
  ) {
    const byName = linkedByName(client, forwarded);
    if (byName) {
      const detail = `${show(sent.resultIds)} → absent, linked by name ${show(byName)}`;
      return { kind: "preserved", detail, cause: "name-linked" };
    }
    return { absent: true, detail: `${show(sent.resultIds)} → absent` };
  }
  const rename = renaming(sent, got) ?? new Map<string, string>();
  if (!resultsFollow(sent, got, rename)) return { kind: "mangled", detail, cause: "unlinked" };
  return sameValue(sent.resultIds, got.resultIds)
    ? { kind: "preserved", detail }
    : { kind: "preserved", detail, cause: "rewritten-linked" };
}

/**
 * Where the backend names the call a result answers (Gemini links `functionResponse` to its
 * `functionCall` by `name`, the id being optional: https://ai.google.dev/api/caching#FunctionResponse),
 * each forwarded result's name must be its call's: the name the request determines, judged
 * by value. The call is the client's, found by the result's id; results are paired by
 * position. Undefined when every named result names its call (or none is named).
 */
function misnamedResults(
  client: CanonicalRequest,
  forwarded: CanonicalRequest,
): string | undefined {
  const expected = callNames(client);
  const got = toolResultParts(forwarded);
  const wrong: string[] = [];
  for (let i = 0; i < got.length && i < expected.length; i++) {
    const name = got[i]?.name;
    const want = expected[i];
    if (name !== undefined && want !== undefined && name !== want) {
      wrong.push(`result ${i + 1} names ${show(name)}, its call is ${show(want)}`);
    }
  }
  return wrong.length > 0 ? wrong.join("; ") : undefined;
}

/** The name of the call each client result answers, in order (found by the result's id). */
function callNames(client: CanonicalRequest): (string | undefined)[] {
  const names = new Map<string, string>();
  const expected: (string | undefined)[] = [];
  for (const m of conversation(client)) {
    for (const p of m.parts) {
      if (p.type === "tool-call") names.set(p.id, p.name);
      else if (p.type === "tool-result") expected.push(names.get(p.callId) ?? p.name);
    }
  }
  return expected;
}

/**
 * Where the backend defines no tool-call id and links a result to its call by name (Ollama:
 * a call is `function` {name, arguments}, a result a `tool` message naming it in `tool_name`,
 * https://docs.ollama.com/capabilities/tool-calling), a result that names its call carries the
 * link the client's id made: the forwarded names, when every result names its own call.
 */
function linkedByName(client: CanonicalRequest, forwarded: CanonicalRequest): string[] | undefined {
  const backend = forwarded.dialect;
  if (dialectModule(backend).traits.toolResultLink.by !== "name") return undefined;
  if (!requestNoEquivalent("messages.tool-call.id", backend)) return undefined;
  const expected = callNames(client);
  const got = toolResultParts(forwarded).map((p) => p.name);
  if (got.length === 0 || got.length !== expected.length) return undefined;
  const linked = got.every((name, i) => name !== undefined && name === expected[i]);
  return linked ? (got as string[]) : undefined;
}

/** A result's content by meaning: its texts (whitespace-collapsed) and media payloads. */
function resultMeaning(part: Extract<Part, { type: "tool-result" }>): string {
  const bits: string[] = [];
  for (const inner of part.content) {
    if (inner.type === "text") {
      const text = normalizeText(inner.text);
      if (text !== "") bits.push(text);
    } else if (inner.type === "image" || inner.type === "document")
      bits.push(`<${mediaKey(inner.source)}>`);
  }
  return bits.join(" ");
}

/**
 * The text inside a one-key JSON object, when a result's only content is such an object.
 * Gemini carries a result as an object (`functionResponse.response`); the reader reads
 * `{output: v}` and `{error: v}` as v, and any other object as its JSON, because "if
 * "output" and "error" keys are not specified, then whole "response" is treated as function
 * output" (https://ai.google.dev/api/caching#FunctionResponse). A gateway that wraps the
 * client's text in a key of its choosing (`{"result": v}`, "any keys of their choice that fit
 * the function's syntax") still hands the model v, inside that key: carried, cause `wrapped`.
 */
function wrappedText(part: Extract<Part, { type: "tool-result" }>): string | undefined {
  const only = part.content.length === 1 ? part.content[0] : undefined;
  if (only?.type !== "text" || !only.text.startsWith("{")) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(only.text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  const keys = Object.keys(parsed);
  const value = keys.length === 1 ? parsed[keys[0] as string] : undefined;
  return typeof value === "string" ? normalizeText(value) : undefined;
}

/** Each result's content arrives in order with the same text and media. */
export function judgeToolResults(client: CanonicalRequest, forwarded: CanonicalRequest): Judgement {
  // The request views' lists (the same parts, in order), not a new one per side.
  const sent = toolResultParts(client).map(resultMeaning);
  const gotParts = toolResultParts(forwarded);
  const got = gotParts.map(resultMeaning);
  if (got.length === 0) return { absent: true, detail: `${show(sent)} → absent` };
  // Where tool output travels inside an object, a result wrapped in one is carried.
  const wraps = dialectModule(forwarded.dialect).traits.toolOutput === "object";
  let wrapped = 0;
  let example: string | undefined;
  const bad = sent.findIndex((s, i) => {
    if (s === got[i]) return false;
    const part = gotParts[i];
    if (!wraps || !part || wrappedText(part) !== s) return true;
    wrapped++;
    example ??= got[i];
    return false;
  });
  if (bad < 0 && sent.length === got.length) {
    const detail = `${sent.length} result(s) → same content`;
    if (wrapped === 0) return { kind: "preserved", detail };
    const how = `${detail}, ${wrapped} inside a one-key response object (${show(example)})`;
    return { kind: "preserved", detail: how, cause: "wrapped" };
  }
  const i = bad < 0 ? sent.length : bad;
  return { kind: "mangled", detail: `result ${i + 1}: ${show(sent[i])} → ${show(got[i])}` };
}

export interface SchemaDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

/** A walk over two schemas: the diff so far and the keys down to where it stands. */
interface SchemaWalk {
  diff: SchemaDiff;
  keys: string[];
  /** Gemini's OpenAPI-subset schema spells types in upper case (`STRING`): same meaning. */
  ignoreTypeCase: boolean;
}

/** The walk's path (`/properties/city`), with `key` below it: built only for a difference. */
function pathOf(walk: SchemaWalk, key?: string): string {
  let path = "";
  for (const k of walk.keys) path += `/${k}`;
  return key === undefined ? path : `${path}/${key}`;
}

function sameLeaf(before: unknown, after: unknown, typeValue: boolean, walk: SchemaWalk): boolean {
  if (typeValue && walk.ignoreTypeCase && typeof before === "string" && typeof after === "string")
    return before.toLowerCase() === after.toLowerCase();
  return sameValue(before, after);
}

function walkSchema(walk: SchemaWalk, before: unknown, after: unknown, typeValue: boolean): void {
  if (isRecord(before) && isRecord(after)) {
    // for-in, not Object.keys: a schema is JSON data (own keys only), and this walks all of it.
    for (const key in after) {
      if (!(key in before)) walk.diff.added.push(pathOf(walk, key));
      else {
        walk.keys.push(key);
        walkSchema(walk, before[key], after[key], key === "type");
        walk.keys.pop();
      }
    }
    for (const key in before) {
      if (!(key in after)) walk.diff.removed.push(pathOf(walk, key));
    }
  } else if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    for (let i = 0; i < before.length; i++) {
      walk.keys.push(String(i));
      walkSchema(walk, before[i], after[i], false);
      walk.keys.pop();
    }
  } else if (!sameLeaf(before, after, typeValue, walk)) {
    walk.diff.changed.push(pathOf(walk) || "/");
  }
}

/**
 * Paths where `after` differs from `before`: keys added, keys removed, values changed. With
 * `ignoreTypeCase`, a `type` string compares without case (Gemini's `STRING` is `string`).
 * Paths are spelled only where there is a difference, and no lower-cased copy of either
 * schema is made: the compare runs for every tool of every exchange, differences are rare.
 */
export function diffSchema(before: unknown, after: unknown, ignoreTypeCase = false): SchemaDiff {
  const walk: SchemaWalk = {
    diff: { added: [], removed: [], changed: [] },
    keys: [],
    ignoreTypeCase,
  };
  walkSchema(walk, before, after, false);
  return walk.diff;
}

/**
 * The schema of the forwarded tool of that name (the last of that name, as a Map built from
 * the list would hold), or undefined. A scan: a request has a few tools, and a Map of them
 * was built for every exchange.
 */
function schemaNamed(req: CanonicalRequest, name: string): unknown {
  const tools = req.tools;
  for (let i = tools.length - 1; i >= 0; i--) {
    const tool = tools[i] as CanonicalRequest["tools"][number];
    if (tool.name === name) return tool.schema;
  }
  return undefined;
}

/**
 * Tool schemas compared per tool name. Only additions (`required: []`, `$defs`) are
 * `invented`; a removed or changed key is `mangled` (a lost constraint changes the meaning).
 */
export function judgeToolSchemas(
  client: CanonicalRequest,
  forwarded: CanonicalRequest,
  backend: Dialect,
): Judgement {
  const added: string[] = [];
  // A schema language that is a subset may drop keys it does not have (diffSchema).
  const subset = dialectModule(backend).traits.toolSchema === "openapi-subset";
  for (const tool of client.tools) {
    if (tool.schema === undefined) continue;
    const gotSchema = schemaNamed(forwarded, tool.name);
    if (gotSchema === undefined) {
      return { absent: true, detail: `${tool.name} ${show(tool.schema)} → absent` };
    }
    const diff = diffSchema(tool.schema, gotSchema, subset);
    if (diff.removed.length > 0 || diff.changed.length > 0) {
      const lost = [...diff.removed, ...diff.changed];
      return {
        kind: "mangled",
        detail: `${tool.name}: ${lost.slice(0, 3).join(", ")} removed or changed`,
        cause: "schema-changed",
      };
    }
    for (const path of diff.added) added.push(`${tool.name}${path}`);
  }
  if (added.length > 0) {
    return {
      kind: "invented",
      detail: `absent → added ${added.slice(0, 3).join(", ")}`,
      cause: "schema-additions",
    };
  }
  return { kind: "preserved", detail: "every schema → same schema" };
}
