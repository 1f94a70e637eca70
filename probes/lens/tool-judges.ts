/**
 * Judges for tools and tool turns: call ids and their links to results, result content,
 * and tool schemas (where keys a client never sent count as invented).
 */
import type { CanonicalRequest, Part } from "../../dialects/canonical.ts";
import type { Dialect } from "../../dialects/dialect.ts";
import { isRecord } from "../../dialects/json.ts";
import type { Judgement } from "./content-judges.ts";
import { mediaKey } from "./content-judges.ts";
import { sameValue, show } from "./describe.ts";
import { conversation, normalizeText } from "./request-view.ts";

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
 * Ids must link each result to its call. Unchanged ids are preserved; ids rewritten one to
 * one, with every result following its call's new id, still link (cause `rewritten-linked`);
 * anything else breaks the link.
 */
export function judgeToolIds(client: CanonicalRequest, forwarded: CanonicalRequest): Judgement {
  const sent = toolTurns(client);
  const got = toolTurns(forwarded);
  const before = [...sent.callIds, ...sent.resultIds];
  const after = [...got.callIds, ...got.resultIds];
  if (after.length === 0) return { absent: true, detail: `${show(before)} → absent` };
  if (sameValue(before, after)) {
    return { kind: "preserved", detail: `${show(before)} → ${show(after)}` };
  }
  if (
    sent.callIds.length !== got.callIds.length ||
    sent.resultIds.length !== got.resultIds.length
  ) {
    return { kind: "mangled", detail: `${show(before)} → ${show(after)}`, cause: "unlinked" };
  }
  const rename = new Map<string, string>();
  const taken = new Set<string>();
  let linked = true;
  sent.callIds.forEach((id, i) => {
    const next = got.callIds[i] as string;
    if (rename.has(id) || taken.has(next)) linked = false;
    rename.set(id, next);
    taken.add(next);
  });
  sent.resultIds.forEach((id, i) => {
    if (rename.get(id) !== got.resultIds[i]) linked = false;
  });
  return linked
    ? { kind: "preserved", detail: `${show(before)} → ${show(after)}`, cause: "rewritten-linked" }
    : { kind: "mangled", detail: `${show(before)} → ${show(after)}`, cause: "unlinked" };
}

/** A result's content by meaning: its texts (whitespace-collapsed) and media payloads. */
function resultMeaning(part: Extract<Part, { type: "tool-result" }>): string {
  const bits: string[] = [];
  for (const inner of part.content) {
    if (inner.type === "text") bits.push(normalizeText(inner.text));
    else if (inner.type === "image" || inner.type === "document")
      bits.push(`<${mediaKey(inner.source)}>`);
  }
  return bits.filter((b) => b !== "").join(" ");
}

function results(req: CanonicalRequest): Extract<Part, { type: "tool-result" }>[] {
  const out: Extract<Part, { type: "tool-result" }>[] = [];
  for (const m of conversation(req))
    for (const p of m.parts) if (p.type === "tool-result") out.push(p);
  return out;
}

/** Each result's content arrives in order with the same text and media. */
export function judgeToolResults(client: CanonicalRequest, forwarded: CanonicalRequest): Judgement {
  const sent = results(client).map(resultMeaning);
  const got = results(forwarded).map(resultMeaning);
  if (got.length === 0) return { absent: true, detail: `${show(sent)} → absent` };
  const bad = sent.findIndex((s, i) => s !== got[i]);
  if (bad < 0 && sent.length === got.length) {
    return { kind: "preserved", detail: `${sent.length} result(s) → same content` };
  }
  const i = bad < 0 ? sent.length : bad;
  return { kind: "mangled", detail: `result ${i + 1}: ${show(sent[i])} → ${show(got[i])}` };
}

export interface SchemaDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

/** Paths where `after` differs from `before`: keys added, keys removed, values changed. */
export function diffSchema(
  before: unknown,
  after: unknown,
  path = "",
  out?: SchemaDiff,
): SchemaDiff {
  const diff = out ?? { added: [], removed: [], changed: [] };
  if (isRecord(before) && isRecord(after)) {
    for (const key of Object.keys(after)) {
      if (!(key in before)) diff.added.push(`${path}/${key}`);
      else diffSchema(before[key], after[key], `${path}/${key}`, diff);
    }
    for (const key of Object.keys(before)) if (!(key in after)) diff.removed.push(`${path}/${key}`);
  } else if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    for (let i = 0; i < before.length; i++) diffSchema(before[i], after[i], `${path}/${i}`, diff);
  } else if (!sameValue(before, after)) {
    diff.changed.push(path || "/");
  }
  return diff;
}

/** Gemini's OpenAPI-subset schema spells types in upper case (`STRING`); same meaning. */
function lowerTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lowerTypes);
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] = k === "type" && typeof v === "string" ? v.toLowerCase() : lowerTypes(v);
  }
  return out;
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
  const got = new Map(forwarded.tools.map((t) => [t.name, t.schema]));
  const norm = backend === "gemini" ? lowerTypes : (s: unknown) => s;
  const added: string[] = [];
  for (const tool of client.tools) {
    if (tool.schema === undefined) continue;
    if (!got.has(tool.name) || got.get(tool.name) === undefined) {
      return { absent: true, detail: `${tool.name} ${show(tool.schema)} → absent` };
    }
    const diff = diffSchema(norm(tool.schema), norm(got.get(tool.name)));
    const lost = [...diff.removed, ...diff.changed];
    if (lost.length > 0) {
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
