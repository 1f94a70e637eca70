/**
 * Read-only views over a canonical request that the request judges share: the system
 * prompt however the dialect carried it, the conversation after it, and every part at any
 * depth (tool-result content included).
 */
import type { CanonicalRequest, Message, Part } from "../../dialects/canonical.ts";

function isSystemRole(message: Message): boolean {
  return message.role === "system" || message.role === "developer";
}

/** Leading system/developer messages count as the system prompt (Chat, Responses input). */
export function leadingSystemCount(req: CanonicalRequest): number {
  let n = 0;
  while (n < req.messages.length && isSystemRole(req.messages[n] as Message)) n++;
  return n;
}

/** The conversation: every message after the leading system ones. */
export function conversation(req: CanonicalRequest): Message[] {
  const skip = leadingSystemCount(req);
  return skip === 0 ? req.messages : req.messages.slice(skip);
}

/** System prompt parts: top-level `system` plus leading system/developer messages. */
export function systemParts(req: CanonicalRequest): Part[] {
  const skip = leadingSystemCount(req);
  if (skip === 0) return req.system;
  const out = [...req.system];
  for (let i = 0; i < skip; i++) out.push(...(req.messages[i] as Message).parts);
  return out;
}

/** Calls `visit` for every part of the conversation, descending into tool results. */
export function eachPart(
  messages: readonly Message[],
  visit: (part: Part, message: Message, nested: boolean) => void,
): void {
  for (const message of messages) {
    for (const part of message.parts) {
      visit(part, message, false);
      if (part.type === "tool-result")
        for (const inner of part.content) visit(inner, message, true);
    }
  }
}

/** Every string a reader could see as text: system, message text, tool-result text, refusals. */
export function allTexts(req: CanonicalRequest): string[] {
  const out: string[] = [];
  for (const part of systemParts(req)) if (part.type === "text") out.push(part.text);
  eachPart(conversation(req), (part) => {
    if (part.type === "text" || part.type === "refusal") out.push(part.text);
  });
  return out;
}

/** Whitespace-collapsed text, so a join with "\n" vs "\n\n" compares equal. */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Tool-call arguments by meaning: parsed JSON when it parses, else the raw string. */
export function argumentsValue(raw: string): unknown {
  if (raw === "") return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
