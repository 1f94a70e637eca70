/**
 * Canonical reply → Anthropic Messages JSON, as Anthropic sends it.
 *
 * @see https://docs.anthropic.com/en/api/messages
 */
import type { CanonicalReply, Part } from "../canonical.ts";
import { tryParseJson } from "../json.ts";
import { inferStop } from "../openai-chat/reply-write.ts";
import { replyDigest } from "../stream-plan.ts";
import { anthropicStopToWire } from "./stop-reason.ts";
import { writeAnthropicUsage } from "./usage.ts";

/**
 * The header Anthropic puts on every reply, errors too: `req_` and 24 base62 characters.
 * @see https://docs.anthropic.com/en/api/errors#request-id
 */
export const ANTHROPIC_REQUEST_ID = {
  header: "request-id",
  format: (hex32: string): string => `req_011C${hex32.slice(0, 20)}`,
} as const;

export function anthropicReplyId(reply: CanonicalReply): string {
  return reply.id ?? `msg_${replyDigest(reply)}`;
}

export function anthropicStopReason(reply: CanonicalReply): string {
  if (reply.dialect === "anthropic-messages" && reply.rawStopReason !== undefined) {
    return reply.rawStopReason;
  }
  return anthropicStopToWire(reply.stopReason ?? inferStop(reply.parts));
}

/**
 * Tool input is an object on this wire. Arguments that are not a JSON object cannot be
 * expressed; they are sent as the raw string, so the loss stays visible downstream.
 */
export function toolInput(args: string): unknown {
  if (args === "") return {};
  const parsed = tryParseJson(args);
  return parsed.ok ? parsed.value : args;
}

/** One content block per canonical part; refusal becomes text (Anthropic has no refusal block). */
export function anthropicBlock(part: Part): Record<string, unknown> | undefined {
  switch (part.type) {
    case "text":
    case "refusal":
      return { type: "text", text: part.text };
    case "thinking":
      if (part.redacted) return { type: "redacted_thinking", data: part.signature ?? part.text };
      return part.signature === undefined
        ? { type: "thinking", thinking: part.text }
        : { type: "thinking", thinking: part.text, signature: part.signature };
    case "reasoning":
      return { type: "thinking", thinking: part.text };
    case "tool-call":
      return { type: "tool_use", id: part.id, name: part.name, input: toolInput(part.arguments) };
    default:
      return undefined;
  }
}

export function writeAnthropicReply(reply: CanonicalReply): Record<string, unknown> {
  const own = reply.dialect === "anthropic-messages" ? reply.extras : {};
  const body: Record<string, unknown> = {
    ...own,
    id: anthropicReplyId(reply),
    type: "message",
    role: "assistant",
    model: reply.model ?? "gatecheck-mock",
    content: reply.parts.flatMap((p) => anthropicBlock(p) ?? []),
    stop_reason: anthropicStopReason(reply),
    stop_sequence: reply.stopSequence ?? null,
  };
  if (reply.usage) body.usage = writeAnthropicUsage(reply.usage);
  return body;
}
