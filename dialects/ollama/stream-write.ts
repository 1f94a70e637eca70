/**
 * Canonical reply → Ollama NDJSON stream: one object per line with `done: false` and a piece
 * of `message.content` or `message.thinking`, tool calls whole in one line (Ollama does not
 * stream argument fragments), and a last line with `done: true`, `done_reason` and counts.
 *
 * @see https://github.com/ollama/ollama/blob/main/docs/api.md#chat-request-streaming
 */
import type { CanonicalReply, ReplyError } from "../canonical.ts";
import type { StreamEvent, WrittenEvents } from "../sse.ts";
import { chunksFor, kindIndexes, type StreamPlan } from "../stream-plan.ts";
import { ollamaCreatedAt, ollamaDoneFields, ollamaToolCall } from "./reply-write.ts";

export function writeOllamaEvents(reply: CanonicalReply, plan: StreamPlan): WrittenEvents {
  const head = { model: reply.model ?? "gatecheck-mock", created_at: ollamaCreatedAt(reply) };
  // NDJSON is one object per line: multilineData cannot apply here.
  const line = (
    message: Record<string, unknown>,
    tail: Record<string, unknown> = { done: false },
  ) => ({
    data: JSON.stringify({
      ...head,
      message: { role: "assistant", content: "", ...message },
      ...tail,
    }),
  });
  const events: StreamEvent[] = [];
  const nth = kindIndexes(reply.parts);
  let toolIndex = 0;
  reply.parts.forEach((part, i) => {
    const n = nth[i] ?? 0;
    switch (part.type) {
      case "text":
      case "refusal":
        for (const piece of chunksFor(part.text, plan.textChunks, n, plan.textChunkSize, "text")) {
          events.push(line({ content: piece }));
        }
        break;
      case "thinking":
      case "reasoning": {
        const pieces =
          part.type === "thinking"
            ? chunksFor(part.text, plan.thinkingChunks, n, plan.textChunkSize, "thinking")
            : chunksFor(part.text, plan.textChunks, n, plan.textChunkSize, "text");
        for (const piece of pieces) events.push(line({ thinking: piece }));
        break;
      }
      case "tool-call":
        events.push(line({ tool_calls: [ollamaToolCall(part, toolIndex++)] }));
        break;
      default:
        break;
    }
  });
  events.push(line({}, ollamaDoneFields(reply, (plan.usage ?? "final") !== "omit")));
  return { events, terminal: 1 };
}

export function ollamaErrorEvent(
  error: ReplyError,
  _index: number,
  _plan: StreamPlan,
): StreamEvent {
  return { data: JSON.stringify({ error: error.message ?? "" }) };
}
