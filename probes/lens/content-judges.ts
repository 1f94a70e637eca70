/**
 * Judges for message content whose meaning is more than a value: text carried (merging
 * allowed), media that must stay media, private reasoning that must stay private, and cache
 * markers. Each returns an Outcome; judge-request.ts names the field and the direction.
 */
import type { CacheMarker, CanonicalRequest, MediaSource, Part } from "../../dialects/canonical.ts";
import { dialectModule } from "../../dialects/registry.ts";
import { show, showChange } from "./describe.ts";
import type { Absent, Judgement } from "./judgement.ts";
import { partNoEquivalent } from "./no-equivalent.ts";
import {
  allTexts,
  conversation,
  flatParts,
  leadingSystemCount,
  normalizeText,
  systemParts,
} from "./request-view.ts";

function textsOf(parts: readonly Part[]): string[] {
  const out: string[] = [];
  for (const p of parts) if (p.type === "text" && p.text.trim() !== "") out.push(p.text);
  return out;
}

/** The system prompt: carried if its text arrives as system text, in any number of blocks. */
export function judgeSystem(client: CanonicalRequest, forwarded: CanonicalRequest): Judgement {
  const sent = normalizeText(textsOf(systemParts(client)).join("\n"));
  const got = normalizeText(textsOf(systemParts(forwarded)).join("\n"));
  if (got === "") {
    const moved = allTexts(forwarded).some((t) => normalizeText(t).includes(sent));
    if (moved)
      return { kind: "mangled", detail: `${show(sent)} → moved into a message`, cause: "moved" };
    return { absent: true, detail: `${show(sent)} → absent` };
  }
  if (got !== sent) return { kind: "mangled", detail: showChange(sent, got) };
  if (developerLost(client, forwarded)) {
    return { kind: "mangled", detail: `developer ${show(sent)} → system`, cause: "role-changed" };
  }
  return { kind: "preserved", detail: showChange(sent, got) };
}

/**
 * A developer message sent to a backend that has the developer role must keep it: OpenAI
 * gives developer and system different weight in its instruction hierarchy.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages
 */
function developerLost(client: CanonicalRequest, forwarded: CanonicalRequest): boolean {
  if (!dialectModule(forwarded.dialect).traits.developerRole) return false;
  const sent = client.messages.slice(0, leadingSystemCount(client));
  if (!sent.some((m) => m.role === "developer")) return false;
  const got = forwarded.messages.slice(0, leadingSystemCount(forwarded));
  return !got.some((m) => m.role === "developer");
}

function conversationTexts(req: CanonicalRequest): string[] {
  const out: string[] = [];
  // Pushed part by part: a list per message, spread into this one, was built for nothing.
  for (const m of conversation(req))
    for (const p of m.parts) if (p.type === "text" && p.text.trim() !== "") out.push(p.text);
  return out;
}

/** Whether `text` is a client system or developer turn's, inside the conversation. */
function isSystemTurnText(client: CanonicalRequest, text: string): boolean {
  for (const m of conversation(client)) {
    if (m.role !== "system" && m.role !== "developer") continue;
    for (const p of m.parts) if (p.type === "text" && p.text === text) return true;
  }
  return false;
}

/** Whether `text` arrived in the forwarded request's system prompt. */
function inSystemPrompt(forwarded: CanonicalRequest, text: string): boolean {
  const wanted = normalizeText(text);
  for (const p of systemParts(forwarded)) {
    if (p.type === "text" && normalizeText(p.text).includes(wanted)) return true;
  }
  return false;
}

/**
 * Every client text must arrive as conversation text; merging adjacent texts is fine. A
 * system turn inside the conversation (a note between two user turns) has no place in a
 * backend whose system prompt is one top-level field (Anthropic `system`, Gemini
 * `systemInstruction`): its text carried there is the best that backend can do, so the lost
 * position is `no-equivalent` (cause `moved`), the same answer as `messages`' (which counts
 * the text as carried).
 */
export function judgeText(client: CanonicalRequest, forwarded: CanonicalRequest): Judgement {
  const sent = conversationTexts(client);
  const joined = normalizeText(conversationTexts(forwarded).join("\n"));
  let missing: string | undefined;
  let lifted: string | undefined;
  const topLevel = dialectModule(forwarded.dialect).traits.systemPrompt === "top-level";
  for (const t of sent) {
    if (joined.includes(normalizeText(t))) continue;
    if (topLevel && isSystemTurnText(client, t) && inSystemPrompt(forwarded, t)) {
      lifted ??= t;
      continue;
    }
    missing = t;
    break;
  }
  if (missing === undefined && lifted !== undefined) {
    const why = `${forwarded.dialect} has no system turn inside a conversation`;
    return {
      kind: "no-equivalent",
      detail: `${show(lifted)} → carried in the system prompt (${why})`,
      cause: "moved",
    };
  }
  if (missing === undefined) {
    return { kind: "preserved", detail: `${sent.length} text part(s) → all carried` };
  }
  const elsewhere = allTexts(forwarded).some((t) =>
    normalizeText(t).includes(normalizeText(missing)),
  );
  if (elsewhere) {
    return {
      kind: "mangled",
      detail: `${show(missing)} → moved out of the conversation`,
      cause: "moved",
    };
  }
  const head = normalizeText(missing).slice(0, 20);
  if (head.length >= 8 && joined.includes(head)) {
    return { kind: "mangled", detail: `${show(missing)} → altered in ${show(joined)}` };
  }
  return { absent: true, detail: `${show(missing)} → absent` };
}

/**
 * The bytes that identify a media item: base64 payload (data URLs unwrapped), URL, or file id.
 * A text document's key is its text's base64 (its UTF-8 bytes), so a text carried as inline
 * bytes (Chat `file_data`, Gemini `inlineData`) is the same document.
 */
export function mediaKey(source: MediaSource): string {
  if (source.kind === "base64") return source.data;
  if (source.kind === "file-id") return source.fileId;
  if (source.kind === "text") return Buffer.from(source.data, "utf8").toString("base64");
  const data = /^data:[^;,]*;base64,(.*)$/s.exec(source.url);
  return data ? (data[1] ?? "") : source.url;
}

function describeMedia(type: string, source: MediaSource): string {
  const key = mediaKey(source);
  const kind = source.kind === "url" && !source.url.startsWith("data:") ? "url" : source.kind;
  return `${type} ${"mediaType" in source ? (source.mediaType ?? "") : ""} ${kind} (${key.length} chars)`.replace(
    /\s+/g,
    " ",
  );
}

type MediaType = "image" | "document" | "audio";
type MediaPart = Extract<Part, { type: MediaType }>;

function mediaParts(req: CanonicalRequest, type: MediaType): MediaPart[] {
  const out: MediaPart[] = [];
  for (const p of flatParts(req)) if (p.type === type) out.push(p);
  return out;
}

/**
 * An image must arrive as an image. Its payload found inside a text string is `mangled`
 * with cause `stringified`: the model reads base64 characters, not a picture.
 */
export function judgeMedia(
  client: CanonicalRequest,
  forwarded: CanonicalRequest,
  type: MediaType,
): Judgement {
  const sent = mediaParts(client, type);
  const got = new Set(mediaParts(forwarded, type).map((p) => mediaKey(p.source)));
  const texts = allTexts(forwarded);
  // Kinds the backend has no place for (a URL image to Ollama), when it carries the rest.
  const excused: { what: string; reason: string }[] = [];
  for (const part of sent) {
    const source = part.source;
    const key = mediaKey(source);
    if (got.has(key)) continue;
    const probe = key.slice(0, 64);
    // A text document's words in a text part are its payload too (the document became prose).
    const words = source.kind === "text" ? normalizeText(source.data).slice(0, 64) : "";
    const inText = (t: string) =>
      (probe.length >= 16 && t.includes(probe)) ||
      (words.length >= 16 && normalizeText(t).includes(words));
    if (texts.some(inText)) {
      return {
        kind: "mangled",
        detail: `${describeMedia(type, source)} → text containing its payload`,
        cause: "stringified",
      };
    }
    // The reader keeps a part it cannot read whole (a wrong shape): the payload
    // arrived, but not as something the backend dialect defines.
    const odd = flatParts(forwarded).some(
      (p) => p.type === "unknown" && probe.length >= 16 && JSON.stringify(p.raw).includes(probe),
    );
    if (odd) {
      return {
        kind: "mangled",
        detail: `${describeMedia(type, source)} → a part ${forwarded.dialect} does not define`,
        cause: "malformed-part",
      };
    }
    const row = partNoEquivalent(part, forwarded.dialect);
    if (row && row.subject !== `messages.${type}`) {
      excused.push({ what: `${describeMedia(type, source)} → absent`, reason: row.reason });
      continue;
    }
    if (got.size === 0) return { absent: true, detail: `${describeMedia(type, source)} → absent` };
    return { kind: "mangled", detail: `${describeMedia(type, source)} → a different ${type}` };
  }
  const carried = sent.filter((p) => got.has(mediaKey(p.source)));
  const first = carried[0];
  const what = first ? describeMedia(type, first.source) : type;
  const preserved = `${carried.length} × ${what} → ${type}`;
  if (excused.length === 0) return { kind: "preserved", detail: preserved };
  const lost = excused.map((e) => e.what).join("; ");
  if (carried.length === 0) {
    const subject = sent[0] && partNoEquivalent(sent[0], forwarded.dialect)?.subject;
    return { absent: true, detail: lost, ...(subject ? { rowOf: subject } : {}) };
  }
  const why = `${forwarded.dialect}: ${excused[0]?.reason ?? ""}`;
  return { kind: "no-equivalent", detail: `${preserved}; ${lost} (${why})` };
}

function partTexts(req: CanonicalRequest, type: "thinking" | "reasoning"): string[] {
  const out: string[] = [];
  for (const p of flatParts(req)) if (p.type === type && p.text.trim() !== "") out.push(p.text);
  return out;
}

/** Opaque payloads of redacted thinking (Anthropic `data`, Responses `encrypted_content`). */
function redactedPayloads(req: CanonicalRequest): string[] {
  const out: string[] = [];
  for (const p of flatParts(req)) {
    if (p.type === "thinking" && p.redacted && p.signature) out.push(p.signature);
  }
  return out;
}

/** Every opaque token a backend keeps beside reasoning: thinking signatures, call signatures. */
function privateTokens(req: CanonicalRequest): Set<string> {
  const out = new Set<string>();
  for (const p of flatParts(req)) {
    if ((p.type === "thinking" || p.type === "tool-call") && p.signature) out.add(p.signature);
  }
  return out;
}

interface SentPrivate {
  text: string;
  kind: "thinking" | "reasoning";
}

/**
 * The private texts the client's field stands for. A Responses reasoning item is one field
 * (`input[].reasoning`) whose reader splits it into summary (reasoning) and content
 * (thinking) parts: both are the item's meaning.
 */
function sentPrivate(client: CanonicalRequest, type: "thinking" | "reasoning"): SentPrivate[] {
  const own = partTexts(client, type).map((text) => ({ text, kind: type }));
  if (type !== "thinking" || !dialectModule(client.dialect).traits.reasoningItems) return own;
  return [
    ...own,
    ...partTexts(client, "reasoning").map((text) => ({ text, kind: "reasoning" as const })),
  ];
}

/**
 * Private reasoning (thinking or reasoning text) must stay private reasoning: found in
 * visible text it is `mangled` (`reasoning-as-text`); the other private kind counts as carried.
 * Redacted thinking has no text: its opaque payload must arrive as a signature (except in
 * Responses, where `encrypted_content` is a field of its own, judged as the signature).
 */
export function judgeReasoning(
  client: CanonicalRequest,
  forwarded: CanonicalRequest,
  type: "thinking" | "reasoning",
): Judgement {
  const sent = sentPrivate(client, type);
  const privateGot = normalizeText(
    [...partTexts(forwarded, "thinking"), ...partTexts(forwarded, "reasoning")].join("\n"),
  );
  const visible = normalizeText(allTexts(forwarded).join("\n"));
  for (const { text, kind } of sent) {
    const t = normalizeText(text);
    if (privateGot.includes(t)) continue;
    if (visible.includes(t)) {
      return {
        kind: "mangled",
        detail: `${type} ${show(text)} → visible text`,
        cause: "reasoning-as-text",
      };
    }
    if (privateGot === "") {
      const absent: Absent = { absent: true, detail: `${type} ${show(text)} → absent` };
      if (kind !== type) absent.rowOf = "messages.reasoning";
      return absent;
    }
    return { kind: "mangled", detail: `${type} ${showChange(text, privateGot)}` };
  }
  const redacted =
    type === "thinking" && !dialectModule(client.dialect).traits.reasoningItems
      ? redactedPayloads(client)
      : [];
  if (redacted.length > 0) {
    const tokens = privateTokens(forwarded);
    for (const payload of redacted) {
      if (tokens.has(payload)) continue;
      const what = `redacted thinking ${show(payload)}`;
      if (visible.includes(payload)) {
        return { kind: "mangled", detail: `${what} → visible text`, cause: "reasoning-as-text" };
      }
      if (tokens.size === 0 && privateGot === "")
        return { absent: true, detail: `${what} → absent` };
      return { kind: "mangled", detail: `${what} → another payload` };
    }
  }
  const count = sent.length + redacted.length;
  const kinds = partTexts(forwarded, type).length > 0 ? type : "the other reasoning kind";
  return { kind: "preserved", detail: `${count} ${type} part(s) → ${kinds}` };
}

/** A prior refusal may travel as a refusal or as assistant text: the words are the meaning. */
export function judgeRefusal(client: CanonicalRequest, forwarded: CanonicalRequest): Judgement {
  const sent: string[] = [];
  for (const p of flatParts(client)) if (p.type === "refusal") sent.push(p.text);
  const visible = normalizeText(allTexts(forwarded).join("\n"));
  const missing = sent.find((t) => !visible.includes(normalizeText(t)));
  if (missing === undefined)
    return { kind: "preserved", detail: `${sent.length} refusal(s) → carried` };
  return { absent: true, detail: `${show(missing)} → absent` };
}

function addMarker(out: { type: string; ttl?: string }[], c: CacheMarker | undefined): void {
  if (c) out.push(c.ttl === undefined ? { type: c.type } : { type: c.type, ttl: c.ttl });
}

/** Cache markers in the order they stand (system, then messages), as {type, ttl}. */
export function cacheMarkers(req: CanonicalRequest): { type: string; ttl?: string }[] {
  const out: { type: string; ttl?: string }[] = [];
  for (const p of req.system) if ("cache" in p) addMarker(out, p.cache);
  for (const m of req.messages) for (const p of m.parts) if ("cache" in p) addMarker(out, p.cache);
  return out;
}

export function judgeCache(client: CanonicalRequest, forwarded: CanonicalRequest): Judgement {
  const sent = cacheMarkers(client);
  const got = cacheMarkers(forwarded);
  if (got.length === 0) return { absent: true, detail: `${show(sent)} → absent` };
  const same = JSON.stringify(sent) === JSON.stringify(got);
  return same
    ? { kind: "preserved", detail: showChange(sent, got) }
    : { kind: "mangled", detail: showChange(sent, got) };
}
