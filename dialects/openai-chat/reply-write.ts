/**
 * Canonical reply → OpenAI Chat Completions JSON, as OpenAI sends it.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
import type { CanonicalReply, Part, StopReason } from "../canonical.ts";
import { createdOf, replyDigest } from "../stream-plan.ts";
import { chatStopToWire } from "./stop-reason.ts";
import { writeChatUsage } from "./usage.ts";

export function chatReplyId(reply: CanonicalReply): string {
  return reply.id ?? `chatcmpl-${replyDigest(reply)}`;
}

/** The finish_reason to write: the reply's own spelling when it came from this dialect. */
export function chatFinishReason(reply: CanonicalReply): string {
  if (reply.dialect === "openai-chat" && reply.rawStopReason !== undefined) {
    return reply.rawStopReason;
  }
  return chatStopToWire(reply.stopReason ?? inferStop(reply.parts));
}

export function inferStop(parts: readonly Part[]): StopReason {
  return parts.some((p) => p.type === "tool-call") ? "tool_calls" : "stop";
}

/** Chat carries reasoning only as DeepSeek-style `reasoning_content`; signatures have no place. */
export function chatReasoningText(parts: readonly Part[]): string | undefined {
  const texts = parts.flatMap((p) =>
    p.type === "thinking" || p.type === "reasoning" ? [p.text] : [],
  );
  return texts.length ? texts.join("") : undefined;
}

export function writeChatReply(reply: CanonicalReply): Record<string, unknown> {
  const text = reply.parts.flatMap((p) => (p.type === "text" ? [p.text] : []));
  const refusal = reply.parts.flatMap((p) => (p.type === "refusal" ? [p.text] : []));
  const toolCalls = reply.parts.flatMap((p) =>
    p.type === "tool-call"
      ? [{ id: p.id, type: "function", function: { name: p.name, arguments: p.arguments } }]
      : [],
  );
  const message: Record<string, unknown> = {
    role: "assistant",
    content: text.length ? text.join("") : null,
    refusal: refusal.length ? refusal.join("") : null,
  };
  const reasoning = chatReasoningText(reply.parts);
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  if (toolCalls.length) message.tool_calls = toolCalls;
  const own = reply.dialect === "openai-chat" ? reply.extras : {};
  const body: Record<string, unknown> = {
    ...own,
    id: chatReplyId(reply),
    object: "chat.completion",
    created: createdOf(reply),
    model: reply.model ?? "gatecheck-mock",
    choices: [{ index: 0, message, logprobs: null, finish_reason: chatFinishReason(reply) }],
  };
  if (reply.usage) body.usage = writeChatUsage(reply.usage);
  return body;
}
