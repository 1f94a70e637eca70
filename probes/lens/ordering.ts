/**
 * Checks a field compare cannot make: the conversation as a sequence (tool results right
 * after their calls, a system note kept where it stood) and content the client never sent
 * (an empty text block, a phantom empty message, cache markers, tools).
 */

import type { CanonicalRequest, Message } from "../../dialects/canonical.ts";
import type { Dialect } from "../../dialects/dialect.ts";
import { dialectModule } from "../../dialects/registry.ts";
import type { Cause } from "../causes.ts";
import type { Judgement } from "./judgement.ts";
import { partNoEquivalent, requestNoEquivalent } from "./no-equivalent.ts";
import { allTexts, conversation, normalizeText, systemParts } from "./request-view.ts";
import { emptiedTurns, isEmptyMessage } from "./turns.ts";

/** One token per meaningful part; ids are left out (judged on their own). */
function tokens(messages: readonly Message[]): string[] {
  const out: string[] = [];
  for (const m of messages) {
    const role = m.role === "developer" ? "system" : m.role;
    for (const p of m.parts) {
      if (p.type === "text") {
        const t = normalizeText(p.text);
        if (t !== "") out.push(`${role}:${t}`);
      } else if (p.type === "tool-call") out.push(`call:${p.name}`);
      else if (p.type === "tool-result") out.push("result");
      else if (p.type === "image" || p.type === "document" || p.type === "audio") {
        out.push(`${role}:${p.type}`);
      }
    }
  }
  return out;
}

/**
 * The tokens of `tokens`, each written in two halves (what goes before its colon, and what
 * after; `result` has no after) from index 0 on; answers how many. Equal halves make equal
 * tokens, without building the token strings and flattening them to compare (judgeOrder).
 * Written by index into lists kept from call to call: emptying a list by setting its length
 * is a runtime call that cost more than the strings it saved.
 */
function tokenHalves(messages: readonly Message[], heads: string[], tails: string[]): number {
  let n = 0;
  for (const m of messages) {
    const role = m.role === "developer" ? "system" : m.role;
    for (const p of m.parts) {
      if (p.type === "text") {
        const t = normalizeText(p.text);
        if (t === "") continue;
        heads[n] = role;
        tails[n++] = t;
      } else if (p.type === "tool-call") {
        heads[n] = "call";
        tails[n++] = p.name;
      } else if (p.type === "tool-result") {
        heads[n] = "result";
        tails[n++] = "";
      } else if (p.type === "image" || p.type === "document" || p.type === "audio") {
        heads[n] = role;
        tails[n++] = p.type;
      }
    }
  }
  return n;
}

/** Scratch lists for tokenHalves, reused by every judgeOrder (which never re-enters itself). */
const sentHeads: string[] = [];
const sentTails: string[] = [];
const gotHeads: string[] = [];
const gotTails: string[] = [];

/**
 * How many tokens the client sent when both sides' token lists are equal (the usual case),
 * else undefined. Equal halves always mean equal tokens; where only the tokens are equal
 * (which no canonical role makes possible) the answer is undefined and judgeOrder compares
 * the tokens themselves, so its verdict never depends on this shortcut.
 */
function sameTokenCount(client: CanonicalRequest, forwarded: CanonicalRequest): number | undefined {
  const n = tokenHalves(conversation(client), sentHeads, sentTails);
  if (n === 0 || tokenHalves(conversation(forwarded), gotHeads, gotTails) !== n) return undefined;
  for (let i = 0; i < n; i++) {
    if (sentHeads[i] !== gotHeads[i] || sentTails[i] !== gotTails[i]) return undefined;
  }
  return n;
}

/** Role-tagged text tokens: `user:TURNPROBE-1 first question`. */
const TEXT_TOKEN = /^(system|user|assistant|tool):(.*)$/s;

/** Short form of a token for a reason string: a text cut to 24 characters. */
function brief(token: string): string {
  const m = TEXT_TOKEN.exec(token);
  return m ? `${m[1]}:${(m[2] ?? "").slice(0, 24)}` : token;
}

/**
 * Conversation items the client sent that arrived nowhere: a whole turn, a call or a result
 * gone. Media are left out (each has its own field and no-equivalent rows); a text found
 * anywhere downstream (a system note turned into user text) is carried, judged by its field.
 */
function lostItems(sentAll: string[], gotAll: string[], forwarded: CanonicalRequest): string[] {
  const missing = without(sentAll, gotAll);
  if (missing.length === 0) return missing;
  let texts: string | undefined;
  return missing.filter((t) => {
    if (t === "result" || t.startsWith("call:")) return true;
    const text = TEXT_TOKEN.exec(t)?.[2];
    if (text === undefined || /:(image|document|audio)$/.test(t)) return false;
    texts ??= normalizeText(allTexts(forwarded).join("\n"));
    return !texts.includes(text);
  });
}

/**
 * Texts that left the conversation for somewhere else downstream (lostItems counts them as
 * carried): the same answer as the text judge's (content-judges.ts judgeText), so the order
 * and the position of one system note never disagree. A system note lifted into the system
 * prompt of a backend whose system prompt is one top-level field (`traits.systemPrompt`) is
 * the best that backend can do: `no-equivalent` (cause `moved`); any other text moved out of
 * the conversation is `mangled` (cause `moved`).
 */
function movedOut(
  sentAll: string[],
  gotAll: string[],
  forwarded: CanonicalRequest,
): Judgement | undefined {
  const inConversation = normalizeText(
    conversation(forwarded)
      .flatMap((m) => m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])))
      .join("\n"),
  );
  const moved = without(sentAll, gotAll).filter((t) => {
    const text = TEXT_TOKEN.exec(t)?.[2];
    if (text === undefined || text === "" || /:(image|document|audio)$/.test(t)) return false;
    return !inConversation.includes(text);
  });
  if (moved.length === 0) return undefined;
  const shown = `[${moved.map(brief).join(", ")}]`;
  const system = normalizeText(
    systemParts(forwarded)
      .flatMap((p) => (p.type === "text" ? [p.text] : []))
      .join("\n"),
  );
  const lifted = moved.every((t) => {
    const m = TEXT_TOKEN.exec(t);
    return m?.[1] === "system" && system.includes(m[2] ?? "");
  });
  if (lifted && dialectModule(forwarded.dialect).traits.systemPrompt === "top-level") {
    const why = `${forwarded.dialect} has no system turn inside a conversation`;
    return {
      kind: "no-equivalent",
      detail: `${shown} → carried in the system prompt (${why})`,
      cause: "moved",
    };
  }
  return { kind: "mangled", detail: `${shown} → moved out of the conversation`, cause: "moved" };
}

/** The items of `list` that `other` lacks (as a multiset), in order. */
function without(list: string[], other: string[]): string[] {
  const counts = new Map<string, number>();
  for (const t of other) counts.set(t, (counts.get(t) ?? 0) + 1);
  const out: string[] = [];
  for (const t of list) {
    const n = counts.get(t) ?? 0;
    if (n > 0) counts.set(t, n - 1);
    else out.push(t);
  }
  return out;
}

/** Keeps the items of `list` that `other` also has (as a multiset), in order. */
function common(list: string[], other: string[]): string[] {
  const counts = new Map<string, number>();
  for (const t of other) counts.set(t, (counts.get(t) ?? 0) + 1);
  const out: string[] = [];
  for (const t of list) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      out.push(t);
      counts.set(t, n - 1);
    }
  }
  return out;
}

function sameSequence(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function window(list: string[], at: number): string {
  return `[${list
    .slice(Math.max(0, at - 1), at + 2)
    .map(brief)
    .join(", ")}]`;
}

/**
 * The conversation: every turn, call and result the client sent must arrive (forwarding 1 of
 * 3 turns is `dropped`, cause `turns-lost`), and in the same order over the parts both sides
 * have. Merging messages of one role keeps the order; moving a system note between a call
 * and its result does not.
 */
export function judgeOrder(client: CanonicalRequest, forwarded: CanonicalRequest): Judgement {
  // The common case, every item arrived in its place, told without building the tokens:
  // 1,700 fewer instructions a call, by the count of a driver of judgeOrder alone (docs/lens.md,
  // Round 5).
  const count = sameTokenCount(client, forwarded);
  if (count !== undefined) {
    const emptied = lostTurnContent(client, forwarded);
    if (emptied) return { kind: "dropped", detail: emptied, cause: "turn-emptied" };
    return { kind: "preserved", detail: `${count} item(s) → same order` };
  }
  const sentAll = tokens(conversation(client));
  const gotAll = tokens(conversation(forwarded));
  if (gotAll.length === 0) return { absent: true, detail: `${sentAll.length} item(s) → absent` };
  // The common case, every item arrived in its place: nothing is lost and the order holds,
  // which the multiset work below would find at the cost of four maps.
  const same = sameSequence(sentAll, gotAll);
  const lost = same ? [] : lostItems(sentAll, gotAll, forwarded);
  if (lost.length > 0) {
    return {
      kind: "dropped",
      detail: `${sentAll.length} item(s) → ${gotAll.length}, missing [${lost.map(brief).join(", ")}]`,
      cause: "turns-lost",
    };
  }
  const emptied = lostTurnContent(client, forwarded);
  if (emptied) return { kind: "dropped", detail: emptied, cause: "turn-emptied" };
  if (same) return { kind: "preserved", detail: `${sentAll.length} item(s) → same order` };
  const sent = common(sentAll, gotAll);
  const got = common(gotAll, sentAll);
  const at = sent.findIndex((t, i) => t !== got[i]);
  if (at < 0) {
    const out = movedOut(sentAll, gotAll, forwarded);
    if (out) return out;
    return { kind: "preserved", detail: `${sent.length} item(s) → same order` };
  }
  return {
    kind: "mangled",
    detail: `${window(sent, at)} → ${window(got, at)}`,
    cause: "reordered",
  };
}

/** Part kinds whose own no-equivalent row excuses their absence. */
const PART_SUBJECTS = {
  thinking: "messages.thinking",
  reasoning: "messages.reasoning",
  refusal: "messages.refusal",
} as const;

/** Whether a part's loss is explained: blank, excused by the table, or its words arrived. */
function lossExplained(part: Message["parts"][number], forwarded: CanonicalRequest): boolean {
  if (part.type === "text" && part.text.trim() === "") return true;
  if (partNoEquivalent(part, forwarded.dialect)) return true;
  if (part.type in PART_SUBJECTS) {
    const subject = PART_SUBJECTS[part.type as keyof typeof PART_SUBJECTS];
    if (requestNoEquivalent(subject, forwarded.dialect)) return true;
  }
  if (part.type !== "text" && part.type !== "refusal") return false;
  const text = normalizeText(part.text);
  return allTexts(forwarded).some((t) => normalizeText(t).includes(text));
}

/**
 * A client turn that arrived as an empty message of its speaker (Portkey forwards an
 * assistant turn holding only a refusal as `content: []`): the turn is kept, what it held is
 * silently absent, so `dropped` (cause `turn-emptied`). Content the backend has no place for
 * (a no-equivalent row), or whose words arrived elsewhere, does not count as lost.
 */
function lostTurnContent(
  client: CanonicalRequest,
  forwarded: CanonicalRequest,
): string | undefined {
  const got = conversation(forwarded);
  if (!got.some(isEmptyMessage)) return undefined;
  for (const turn of emptiedTurns(conversation(client), got)) {
    const lost = turn.sent.parts.filter((p) => !lossExplained(p, forwarded));
    if (lost.length === 0) continue;
    const kinds = [...new Set(lost.map((p) => p.type))].join(", ");
    return `turn ${turn.sentIndex + 1} (${turn.sent.role}: ${kinds}) → an empty ${turn.sent.role} message`;
  }
  return undefined;
}

export interface Invention {
  /** Which attribute the invented content belongs to (named in the client's spelling later). */
  attribute: "messages.text" | "messages" | "messages.cache" | "tools";
  detail: string;
  cause: Cause;
}

/** Empty text parts inside messages that have other content (a phantom message counts apart). */
function emptyTextParts(messages: readonly Message[]): number {
  let n = 0;
  for (const m of messages) {
    if (isPhantom(m)) continue;
    for (const p of m.parts) if (p.type === "text" && p.text.trim() === "") n++;
  }
  return n;
}

function isPhantom(m: Message): boolean {
  return m.parts.every((p) => p.type === "text" && p.text.trim() === "");
}

function phantomMessages(messages: readonly Message[]): number {
  let n = 0;
  for (const m of messages) if (isPhantom(m)) n++;
  return n;
}

/** Cache markers anywhere in a request: content, tools and the top-level one. */
function cacheMarkerCount(req: CanonicalRequest): number {
  let n = req.cache ? 1 : 0;
  for (const p of req.system) if ("cache" in p && p.cache) n++;
  for (const m of req.messages) for (const p of m.parts) if ("cache" in p && p.cache) n++;
  for (const t of req.tools) if (t.cache) n++;
  return n;
}

/** Names of the forwarded tools the client never sent, in order. */
function addedTools(client: CanonicalRequest, forwarded: CanonicalRequest): string[] {
  const out: string[] = [];
  if (forwarded.tools.length === 0) return out;
  const sent = new Set<string>();
  for (const t of client.tools) sent.add(t.name);
  for (const t of forwarded.tools) if (!sent.has(t.name)) out.push(t.name);
  return out;
}

/**
 * Content present downstream that the client never sent. An empty text block counts wherever
 * the backend does not spell "no text" that way (issue 20's additions rule: invented, empty or
 * not): Anthropic and Gemini refuse one, and Chat's assistant `content` is optional beside tool
 * calls, so `content: ""` there was written, not needed; Ollama writes `content` on every
 * message (`traits.emptyText`).
 */
export function findInventions(
  client: CanonicalRequest,
  forwarded: CanonicalRequest,
  backend: Dialect,
): Invention[] {
  const out: Invention[] = [];
  const sentMsgs = conversation(client);
  const gotMsgs = conversation(forwarded);
  let phantom = phantomMessages(gotMsgs) - phantomMessages(sentMsgs);
  // A client turn kept but emptied is the client's own message (judged under `messages`).
  if (phantom > 0) phantom -= emptiedTurns(sentMsgs, gotMsgs).length;
  if (phantom > 0) {
    out.push({
      attribute: "messages",
      detail: `absent → ${phantom} empty message(s)`,
      cause: "phantom-message",
    });
  }
  if (dialectModule(backend).traits.emptyText !== "spelling") {
    const empty = emptyTextParts(gotMsgs) - emptyTextParts(sentMsgs);
    if (empty > 0) {
      out.push({
        attribute: "messages.text",
        detail: `absent → ${empty} empty text block(s)`,
        cause: "empty-text",
      });
    }
  }
  // Counted without building the markers (cacheMarkers): this runs for every exchange.
  const sentCache = cacheMarkerCount(client);
  const gotCache = cacheMarkerCount(forwarded);
  if (gotCache > sentCache) {
    out.push({
      attribute: "messages.cache",
      detail: `${sentCache} marker(s) → ${gotCache}`,
      cause: "cache-added",
    });
  }
  const extraTools = addedTools(client, forwarded);
  if (extraTools.length > 0) {
    out.push({
      attribute: "tools",
      detail: `absent → ${JSON.stringify(extraTools)}`,
      cause: "tool-added",
    });
  }
  return out;
}
