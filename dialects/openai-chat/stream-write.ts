/**
 * Canonical reply → OpenAI Chat Completions stream chunks (`chat.completion.chunk`), ending
 * with `data: [DONE]`. Tool-call deltas carry `index`; the first delta of a call carries its
 * id, type and name with empty arguments, the next ones only argument fragments.
 *
 * @see https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream_options
 */
import type { CanonicalReply, ReplyError } from "../canonical.ts";
import type { StreamEvent, WrittenEvents } from "../sse.ts";
import {
  chunksFor,
  createdOf,
  eventJson,
  interleave,
  kindIndexes,
  type StreamPlan,
} from "../stream-plan.ts";
import { writeOpenAiErrorObject } from "./error-body.ts";
import { chatFinishReason, chatReplyId } from "./reply-write.ts";
import { writeChatUsage } from "./usage.ts";

export function writeChatEvents(reply: CanonicalReply, plan: StreamPlan): WrittenEvents {
  const envelope = {
    id: chatReplyId(reply),
    object: "chat.completion.chunk",
    created: createdOf(reply),
    model: reply.model ?? "gatecheck-mock",
  };
  const usagePlan = plan.usage ?? "final";
  // With stream_options.include_usage every chunk carries `usage: null` until the last one.
  const includeUsage = usagePlan === "final" && reply.usage !== undefined;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra = {}) => ({
    data: eventJson(
      {
        ...envelope,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        ...(includeUsage ? { usage: null } : {}),
        ...extra,
      },
      plan,
    ),
  });
  const events: StreamEvent[] = [chunk({ role: "assistant", content: "", refusal: null })];
  const nth = kindIndexes(reply.parts);
  let toolIndex = 0;
  let pendingCalls: { opener: StreamEvent; fragments: StreamEvent[] }[] = [];
  const flushCalls = () => {
    const lists = pendingCalls.map((c) => [c.opener, ...c.fragments]);
    const ordered = plan.interleaveToolCalls ? interleave(lists).map((x) => x.item) : lists.flat();
    events.push(...ordered);
    pendingCalls = [];
  };
  reply.parts.forEach((part, i) => {
    const n = nth[i] ?? 0;
    if (part.type !== "tool-call") flushCalls();
    switch (part.type) {
      case "text":
      case "refusal": {
        const key = part.type === "text" ? "content" : "refusal";
        for (const piece of chunksFor(part.text, plan.textChunks, n, plan.textChunkSize, "text")) {
          events.push(chunk({ [key]: piece }));
        }
        break;
      }
      case "thinking":
      case "reasoning": {
        const chunks =
          part.type === "thinking"
            ? chunksFor(part.text, plan.thinkingChunks, n, plan.textChunkSize, "thinking")
            : chunksFor(part.text, plan.textChunks, n, plan.textChunkSize, "text");
        for (const piece of chunks) events.push(chunk({ reasoning_content: piece }));
        break;
      }
      case "tool-call": {
        const index = toolIndex++;
        const opener = chunk({
          tool_calls: [
            { index, id: part.id, type: "function", function: { name: part.name, arguments: "" } },
          ],
        });
        const fragments = chunksFor(
          part.arguments,
          plan.toolArgumentChunks,
          n,
          plan.toolArgumentChunkSize,
          "tool call",
        )
          .filter((f) => f !== "")
          .map((f) => chunk({ tool_calls: [{ index, function: { arguments: f } }] }));
        pendingCalls.push({ opener, fragments });
        break;
      }
      default:
        break;
    }
  });
  flushCalls();
  const finishExtra =
    usagePlan === "with-finish" && reply.usage ? { usage: writeChatUsage(reply.usage) } : {};
  events.push(chunk({}, chatFinishReason(reply), finishExtra));
  if (includeUsage && reply.usage) {
    // stream_options.include_usage: one last chunk with empty choices carries the usage.
    events.push({
      data: eventJson({ ...envelope, choices: [], usage: writeChatUsage(reply.usage) }, plan),
    });
  }
  events.push({ data: "[DONE]" });
  return { events, terminal: 1 };
}

/** A mid-stream error as OpenAI sends it: a data event holding an error body. */
export function chatErrorEvent(error: ReplyError, _index: number, plan: StreamPlan): StreamEvent {
  return {
    data: eventJson(
      writeOpenAiErrorObject(error.status ?? 500, error.message ?? "", error.type),
      plan,
    ),
  };
}
