/**
 * OpenAI Chat Completions JSON → canonical reply. Reads the first choice (gatecheck sends
 * n=1); reasoning rides as `reasoning_content` (DeepSeek, Moonshot) or `reasoning`
 * (OpenRouter, vLLM) or, with its thinking signature, in Portkey's `content_blocks`
 * (content-blocks.ts); content may be a string or, from some compatible servers, an array of
 * text parts.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
import type { CanonicalReply, Part } from "../canonical.ts";
import { asArray, asRecord, asString, type JsonRecord, unknownKeys } from "../json.ts";
import { contentBlocksThinking } from "./content-blocks.ts";
import { readOpenAiError } from "./error-body.ts";
import { chatStopFromWire } from "./stop-reason.ts";
import { readChatUsage } from "./usage.ts";

const KNOWN = ["id", "object", "model", "choices", "usage"];
const KNOWN_OR_ERROR = [...KNOWN, "error"];

/** Text of a content value: a string, or the text entries of an array of parts. */
export function contentText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  const list = asArray(value);
  if (!list) return undefined;
  return list.map((p) => asString(asRecord(p)?.text) ?? "").join("");
}

export function readChatReply(body: unknown): CanonicalReply {
  const reply: CanonicalReply = { dialect: "openai-chat", parts: [], extras: {} };
  const record = asRecord(body);
  if (!record) {
    reply.error = { message: "reply body is not a JSON object", raw: body };
    return reply;
  }
  const error = readOpenAiError(record);
  if (error) reply.error = { ...error, raw: record.error };
  reply.extras = unknownKeys(record, KNOWN_OR_ERROR);
  const id = asString(record.id);
  if (id !== undefined) reply.id = id;
  const model = asString(record.model);
  if (model !== undefined) reply.model = model;
  const choice = asRecord(asArray(record.choices)?.[0]);
  const message = asRecord(choice?.message);
  if (message) {
    reply.parts = messageParts(message);
    // Read as no text; kept for the one-sided invariants (OpenAI sends null beside tool calls).
    if (contentText(message.content) === "")
      reply.emptied = [{ kind: "text", at: "message.content" }];
  }
  const finish = asString(choice?.finish_reason);
  if (finish !== undefined) {
    reply.rawStopReason = finish;
    reply.stopReason = chatStopFromWire(finish);
  }
  const usage = readChatUsage(record.usage);
  if (usage) reply.usage = usage;
  return reply;
}

function messageParts(message: JsonRecord): Part[] {
  const parts: Part[] = contentBlocksThinking(message.content_blocks);
  const reasoning = asString(message.reasoning_content) ?? asString(message.reasoning);
  // Portkey's blocks carry the same reasoning with its signature: read once, from them.
  if (reasoning && parts.length === 0) parts.push({ type: "reasoning", text: reasoning });
  const text = contentText(message.content);
  if (text) parts.push({ type: "text", text });
  const refusal = asString(message.refusal);
  if (refusal) parts.push({ type: "refusal", text: refusal });
  for (const entry of asArray(message.tool_calls) ?? []) {
    const call = asRecord(entry);
    const fn = asRecord(call?.function);
    const args = fn?.arguments;
    parts.push({
      type: "tool-call",
      id: asString(call?.id) ?? "",
      name: asString(fn?.name) ?? "",
      // Arguments are a string on this wire; an object here is itself a defect, kept visible.
      arguments: typeof args === "string" ? args : args === undefined ? "" : JSON.stringify(args),
    });
  }
  return parts;
}
