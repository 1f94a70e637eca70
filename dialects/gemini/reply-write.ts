/**
 * Canonical reply → Gemini GenerateContentResponse JSON, as Google sends it. Thinking parts
 * are `{text, thought: true}` with the signature as `thoughtSignature`; tool calls are
 * `functionCall` parts with an object `args` (and `id` when the call has one).
 *
 * @see https://ai.google.dev/api/generate-content#generatecontentresponse
 * @see https://ai.google.dev/gemini-api/docs/thinking#signatures
 */

import { toolInput } from "../anthropic-messages/reply-write.ts";
import type { CanonicalReply, Part } from "../canonical.ts";
import { inferStop } from "../openai-chat/reply-write.ts";
import { replyDigest } from "../stream-plan.ts";
import { geminiStopToWire } from "./stop-reason.ts";
import { writeGeminiUsage } from "./usage.ts";

export function geminiResponseId(reply: CanonicalReply): string {
  return reply.id ?? replyDigest(reply, 22);
}

export function geminiFinishReason(reply: CanonicalReply): string {
  if (reply.dialect === "gemini" && reply.rawStopReason !== undefined) return reply.rawStopReason;
  return geminiStopToWire(reply.stopReason ?? inferStop(reply.parts));
}

export function geminiPart(part: Part): Record<string, unknown> | undefined {
  switch (part.type) {
    case "text": {
      const signature = part.extras?.thoughtSignature;
      return typeof signature === "string"
        ? { text: part.text, thoughtSignature: signature }
        : { text: part.text };
    }
    case "refusal":
      return { text: part.text };
    case "thinking":
      return part.signature === undefined
        ? { text: part.text, thought: true }
        : { text: part.text, thought: true, thoughtSignature: part.signature };
    case "reasoning":
      return { text: part.text, thought: true };
    case "tool-call": {
      const call: Record<string, unknown> = { name: part.name, args: toolInput(part.arguments) };
      if (part.id !== "") call.id = part.id;
      return part.signature === undefined
        ? { functionCall: call }
        : { functionCall: call, thoughtSignature: part.signature };
    }
    default:
      return undefined;
  }
}

export function writeGeminiReply(reply: CanonicalReply): Record<string, unknown> {
  const own = reply.dialect === "gemini" ? reply.extras : {};
  const body: Record<string, unknown> = {
    ...own,
    candidates: [
      {
        content: { parts: reply.parts.flatMap((p) => geminiPart(p) ?? []), role: "model" },
        finishReason: geminiFinishReason(reply),
        index: 0,
      },
    ],
  };
  if (reply.usage) body.usageMetadata = writeGeminiUsage(reply.usage);
  body.modelVersion = reply.model ?? "gatecheck-mock";
  body.responseId = geminiResponseId(reply);
  return body;
}
