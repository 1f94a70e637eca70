/**
 * Canonical reply → Ollama /api/chat JSON, as Ollama sends it: `message` with `content`,
 * `thinking` and `tool_calls` (arguments as an object), `done: true`, `done_reason`, counts.
 *
 * @see https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 */

import { toolInput } from "../anthropic-messages/reply-write.ts";
import type { CanonicalReply, Part } from "../canonical.ts";
import { inferStop } from "../openai-chat/reply-write.ts";
import { createdOf } from "../stream-plan.ts";
import { ollamaStopToWire } from "./stop-reason.ts";
import { writeOllamaUsage } from "./usage.ts";

export function ollamaCreatedAt(reply: CanonicalReply): string {
  const own = reply.extras.created_at;
  return typeof own === "string" ? own : new Date(createdOf(reply) * 1000).toISOString();
}

export function ollamaDoneReason(reply: CanonicalReply): string {
  if (reply.dialect === "ollama" && reply.rawStopReason !== undefined) return reply.rawStopReason;
  return ollamaStopToWire(reply.stopReason ?? inferStop(reply.parts));
}

export function ollamaToolCall(part: Part & { type: "tool-call" }, index: number) {
  const fn = { index, name: part.name, arguments: toolInput(part.arguments) };
  return part.id === "" ? { function: fn } : { id: part.id, function: fn };
}

export function ollamaMessage(parts: readonly Part[], firstToolIndex = 0): Record<string, unknown> {
  const content = parts.flatMap((p) => (p.type === "text" || p.type === "refusal" ? [p.text] : []));
  const thinking = parts.flatMap((p) =>
    p.type === "thinking" || p.type === "reasoning" ? [p.text] : [],
  );
  const calls = parts.flatMap((p) => (p.type === "tool-call" ? [p] : []));
  const message: Record<string, unknown> = { role: "assistant", content: content.join("") };
  if (thinking.length) message.thinking = thinking.join("");
  if (calls.length) message.tool_calls = calls.map((c, i) => ollamaToolCall(c, firstToolIndex + i));
  return message;
}

/** The closing fields of the last object: done, done_reason, durations and counts. */
export function ollamaDoneFields(
  reply: CanonicalReply,
  withUsage: boolean,
): Record<string, unknown> {
  return {
    done: true,
    done_reason: ollamaDoneReason(reply),
    total_duration: 0,
    load_duration: 0,
    ...(withUsage && reply.usage
      ? { ...writeOllamaUsage(reply.usage), prompt_eval_duration: 0, eval_duration: 0 }
      : {}),
  };
}

export function writeOllamaReply(reply: CanonicalReply): Record<string, unknown> {
  const own = reply.dialect === "ollama" ? reply.extras : {};
  return {
    ...own,
    model: reply.model ?? "gatecheck-mock",
    created_at: ollamaCreatedAt(reply),
    message: ollamaMessage(reply.parts),
    ...ollamaDoneFields(reply, true),
  };
}
