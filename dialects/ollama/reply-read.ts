/**
 * Ollama /api/chat JSON → canonical reply. `message.thinking` is visible reasoning text
 * (a reasoning part, no signature); tool-call arguments are objects, kept as their JSON
 * string; `done_reason` "stop" after tool calls reads as a tool turn.
 *
 * @see https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 */
import type { CanonicalReply, Part } from "../canonical.ts";
import { asArray, asRecord, asString, type JsonRecord, unknownKeys } from "../json.ts";
import { readOllamaError } from "./error-body.ts";
import { ollamaStopFromWire } from "./stop-reason.ts";
import { readOllamaUsage } from "./usage.ts";

const KNOWN = [
  "model",
  "message",
  "done",
  "done_reason",
  "prompt_eval_count",
  "eval_count",
  "total_duration",
  "load_duration",
  "prompt_eval_duration",
  "eval_duration",
];

export function ollamaToolCallPart(value: unknown): Part {
  const call = asRecord(value);
  const fn = asRecord(call?.function);
  const args = fn?.arguments;
  return {
    type: "tool-call",
    id: asString(call?.id) ?? "",
    name: asString(fn?.name) ?? "",
    arguments: typeof args === "string" ? args : args === undefined ? "" : JSON.stringify(args),
  };
}

export function ollamaMessageParts(message: JsonRecord): Part[] {
  const parts: Part[] = [];
  const thinking = asString(message.thinking);
  if (thinking) parts.push({ type: "reasoning", text: thinking });
  const content = asString(message.content);
  if (content) parts.push({ type: "text", text: content });
  for (const call of asArray(message.tool_calls) ?? []) parts.push(ollamaToolCallPart(call));
  return parts;
}

export function readOllamaReply(body: unknown): CanonicalReply {
  const reply: CanonicalReply = { dialect: "ollama", parts: [], extras: {} };
  const record = asRecord(body);
  if (!record) {
    reply.error = { message: "reply body is not a JSON object", raw: body };
    return reply;
  }
  const error = readOllamaError(record);
  if (error) {
    reply.error = { ...error, raw: record.error };
    return reply;
  }
  reply.extras = unknownKeys(record, KNOWN);
  const model = asString(record.model);
  if (model !== undefined) reply.model = model;
  const message = asRecord(record.message);
  if (message) reply.parts = ollamaMessageParts(message);
  const reason = asString(record.done_reason);
  if (reason !== undefined) {
    reply.rawStopReason = reason;
    reply.stopReason = ollamaStopFromWire(
      reason,
      reply.parts.some((p) => p.type === "tool-call"),
    );
  }
  const usage = readOllamaUsage(record);
  if (usage) reply.usage = usage;
  return reply;
}
