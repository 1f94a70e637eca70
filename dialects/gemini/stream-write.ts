/**
 * Canonical reply → Gemini `streamGenerateContent?alt=sse` events: each `data:` is a whole
 * GenerateContentResponse holding the next parts. Function calls arrive whole (Gemini does not
 * stream argument fragments, so the plan's fragment fields do not apply); the last chunk
 * carries finishReason and usageMetadata and is the stream's terminal event.
 *
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
import type { CanonicalReply, ReplyError } from "../canonical.ts";
import type { StreamEvent, WrittenEvents } from "../sse.ts";
import { chunksFor, eventJson, kindIndexes, type StreamPlan } from "../stream-plan.ts";
import { writeGeminiErrorObject } from "./error-body.ts";
import { geminiFinishReason, geminiPart, geminiResponseId } from "./reply-write.ts";
import { writeGeminiUsage } from "./usage.ts";

export function writeGeminiEvents(reply: CanonicalReply, plan: StreamPlan): WrittenEvents {
  const tail = {
    modelVersion: reply.model ?? "gatecheck-mock",
    responseId: geminiResponseId(reply),
  };
  const chunk = (parts: unknown[], finish?: string, usage?: unknown): StreamEvent => {
    const candidate: Record<string, unknown> = { content: { parts, role: "model" } };
    if (finish !== undefined) candidate.finishReason = finish;
    candidate.index = 0;
    const body: Record<string, unknown> = { candidates: [candidate] };
    if (usage !== undefined) body.usageMetadata = usage;
    return { data: eventJson({ ...body, ...tail }, plan) };
  };
  const events: StreamEvent[] = [];
  const nth = kindIndexes(reply.parts);
  reply.parts.forEach((part, i) => {
    const n = nth[i] ?? 0;
    const whole = geminiPart(part);
    if (!whole) return;
    if (part.type === "tool-call") {
      events.push(chunk([whole]));
      return;
    }
    const text = "text" in part && typeof part.text === "string" ? part.text : "";
    const pieces =
      part.type === "thinking"
        ? chunksFor(text, plan.thinkingChunks, n, plan.textChunkSize, "thinking")
        : chunksFor(text, plan.textChunks, n, plan.textChunkSize, "text");
    pieces.forEach((piece, k) => {
      const last = k === pieces.length - 1;
      // The signature rides on the last piece of its thought, as Gemini sends it.
      const { thoughtSignature, ...rest } = whole as { thoughtSignature?: string };
      const body = { ...rest, text: piece };
      events.push(
        chunk([last && thoughtSignature !== undefined ? { ...body, thoughtSignature } : body]),
      );
    });
  });
  const usage =
    reply.usage && (plan.usage ?? "final") !== "omit" ? writeGeminiUsage(reply.usage) : undefined;
  events.push(chunk([{ text: "" }], geminiFinishReason(reply), usage));
  return { events, terminal: 1 };
}

export function geminiErrorEvent(error: ReplyError, _index: number, plan: StreamPlan): StreamEvent {
  return {
    data: eventJson(
      writeGeminiErrorObject(error.status ?? 500, error.message ?? "", error.type),
      plan,
    ),
  };
}
