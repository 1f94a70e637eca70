/**
 * Total readers over an OpenAI Chat Completions body, shared by the personas of providers that
 * speak that dialect (DeepSeek, Moonshot, Google's OpenAI endpoint). Nothing here throws: a
 * shape that is not what a reader expects reads as absent.
 */
import { asArray, asRecord, asString, type JsonRecord } from "../../dialects/json.ts";

export interface ChatMessageAt {
  index: number;
  role: string | undefined;
  message: JsonRecord;
}

/** `messages[]` entries that are objects, with their index in the array as sent. */
export function chatMessages(body: JsonRecord): ChatMessageAt[] {
  const out: ChatMessageAt[] = [];
  const messages = asArray(body.messages) ?? [];
  messages.forEach((entry, index) => {
    const message = asRecord(entry);
    if (message) out.push({ index, role: asString(message.role), message });
  });
  return out;
}

/** The ids of an assistant message's `tool_calls` (entries without a string id are skipped). */
export function toolCallIds(message: JsonRecord): string[] {
  const calls = asArray(message.tool_calls) ?? [];
  return calls.flatMap((call) => {
    const id = asString(asRecord(call)?.id);
    return id === undefined ? [] : [id];
  });
}

export function hasToolCalls(message: JsonRecord): boolean {
  return (asArray(message.tool_calls)?.length ?? 0) > 0;
}

/** `thinking: {type: "enabled" | "disabled"}` as sent (DeepSeek and Moonshot both use it). */
export function thinkingType(body: JsonRecord): string | undefined {
  return asString(asRecord(body.thinking)?.type);
}
