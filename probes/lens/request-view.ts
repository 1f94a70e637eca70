/**
 * Read-only views over a canonical request that the request judges share: the system
 * prompt however the dialect carried it, the conversation after it, and every part at any
 * depth (tool-result content included).
 */

import type { CanonicalRequest, Message, Part } from "../../dialects/canonical.ts";
import { RecentByIdentity } from "./recent-by-identity.ts";

function isSystemRole(message: Message): boolean {
  return message.role === "system" || message.role === "developer";
}

/** Leading system/developer messages count as the system prompt (Chat, Responses input). */
export function leadingSystemCount(req: CanonicalRequest): number {
  let n = 0;
  while (n < req.messages.length && isSystemRole(req.messages[n] as Message)) n++;
  return n;
}

interface View {
  conversation: Message[];
  system: Part[];
  /** Every conversation part, tool-result content included, in order. */
  flat: Part[];
  types: Set<string>;
  texts?: string[];
  calls?: ToolCallPart[];
  results?: ToolResultPart[];
  callArguments?: unknown[];
}

export type ToolCallPart = Extract<Part, { type: "tool-call" }>;
export type ToolResultPart = Extract<Part, { type: "tool-result" }>;

/**
 * Views are computed once per request: a judgement asks for them dozens of times, about two
 * requests at a time (the client's and the forwarded one); see recent-by-identity.ts.
 */
const views = new RecentByIdentity(buildView);

function buildView(req: CanonicalRequest): View {
  const skip = leadingSystemCount(req);
  const conversation = skip === 0 ? req.messages : req.messages.slice(skip);
  let system = req.system;
  if (skip > 0) {
    system = [...req.system];
    for (let i = 0; i < skip; i++) system.push(...(req.messages[i] as Message).parts);
  }
  const flat: Part[] = [];
  const types = new Set<string>();
  for (const message of conversation) {
    for (const part of message.parts) {
      flat.push(part);
      types.add(part.type);
      if (part.type === "tool-result") {
        for (const inner of part.content) {
          flat.push(inner);
          types.add(inner.type);
        }
      }
    }
  }
  return { conversation, system, flat, types };
}

/** The conversation: every message after the leading system ones. */
export function conversation(req: CanonicalRequest): Message[] {
  return views.get(req).conversation;
}

/** System prompt parts: top-level `system` plus leading system/developer messages. */
export function systemParts(req: CanonicalRequest): Part[] {
  return views.get(req).system;
}

/** Every conversation part, descending into tool results, in order. */
export function flatParts(req: CanonicalRequest): readonly Part[] {
  return views.get(req).flat;
}

export function hasPartType(req: CanonicalRequest, type: Part["type"]): boolean {
  return views.get(req).types.has(type);
}

/** Tool-call parts of the conversation (top level only), in order. */
export function toolCallParts(req: CanonicalRequest): readonly ToolCallPart[] {
  const v = views.get(req);
  if (v.calls) return v.calls;
  const out: ToolCallPart[] = [];
  for (const m of v.conversation) for (const p of m.parts) if (p.type === "tool-call") out.push(p);
  v.calls = out;
  return out;
}

/** Tool-result parts of the conversation (top level only), in order. */
export function toolResultParts(req: CanonicalRequest): readonly ToolResultPart[] {
  const v = views.get(req);
  if (v.results) return v.results;
  const out: ToolResultPart[] = [];
  for (const m of v.conversation)
    for (const p of m.parts) if (p.type === "tool-result") out.push(p);
  v.results = out;
  return out;
}

/** Each tool call's arguments by meaning (argumentsValue), in order; parsed once per request. */
export function toolCallArguments(req: CanonicalRequest): readonly unknown[] {
  const v = views.get(req);
  v.callArguments ??= toolCallParts(req).map((c) => argumentsValue(c.arguments));
  return v.callArguments;
}

/** Every string a reader could see as text: system, message text, tool-result text, refusals. */
export function allTexts(req: CanonicalRequest): string[] {
  const v = views.get(req);
  if (v.texts) return v.texts;
  const out: string[] = [];
  for (const part of v.system) if (part.type === "text") out.push(part.text);
  for (const part of v.flat)
    if (part.type === "text" || part.type === "refusal") out.push(part.text);
  v.texts = out;
  return out;
}

/**
 * Recent normalizations: the judges normalize the same texts several times per exchange (the
 * system prompt, each turn, the joined conversation), and a Map hit on the same string is
 * cheaper than the regex. Bounded: texts up to 4 KB, cleared when full.
 */
const normalized = new Map<string, string>();

/** Whitespace-collapsed text, so a join with "\n" vs "\n\n" compares equal. */
export function normalizeText(text: string): string {
  if (text.length > 4096) return text.replace(/\s+/g, " ").trim();
  let out = normalized.get(text);
  if (out === undefined) {
    out = text.replace(/\s+/g, " ").trim();
    if (normalized.size >= 2048) normalized.clear();
    normalized.set(text, out);
  }
  return out;
}

/**
 * Recent tool-call arguments by their text: the same call is read from the client request,
 * the forwarded one and both replies, and a sweep sends the same few calls again and again.
 * The parsed values are only compared and shown, never changed, so one may serve every
 * request that carries the same text. Bounded: texts up to 4 KB, cleared when full.
 */
const parsedArguments = new Map<string, unknown>();

/** Tool-call arguments by meaning: parsed JSON when it parses, else the raw string. */
export function argumentsValue(raw: string): unknown {
  if (raw === "") return raw;
  if (raw.length > 4096) return parseArguments(raw);
  let value = parsedArguments.get(raw);
  if (value === undefined) {
    value = parseArguments(raw);
    if (parsedArguments.size >= 1024) parsedArguments.clear();
    parsedArguments.set(raw, value);
  }
  return value;
}

function parseArguments(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
