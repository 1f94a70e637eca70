/**
 * Canonical reply → Anthropic Messages stream events: message_start, then per content block
 * content_block_start / content_block_delta (text_delta, input_json_delta, thinking_delta
 * then signature_delta) / content_block_stop, then message_delta (stop reason and usage)
 * and message_stop.
 *
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
import type { CanonicalReply, ReplyError } from "../canonical.ts";
import type { StreamEvent, WrittenEvents } from "../sse.ts";
import { chunksFor, eventJson, interleave, kindIndexes, type StreamPlan } from "../stream-plan.ts";
import { writeAnthropicErrorObject } from "./error-body.ts";
import { anthropicBlock, anthropicReplyId, anthropicStopReason } from "./reply-write.ts";
import { writeAnthropicUsage } from "./usage.ts";

export function writeAnthropicEvents(reply: CanonicalReply, plan: StreamPlan): WrittenEvents {
  const ev = (type: string, body: Record<string, unknown>): StreamEvent => ({
    event: type,
    data: eventJson({ type, ...body }, plan),
  });
  const usagePlan = plan.usage ?? "final";
  const usage = reply.usage && usagePlan !== "omit" ? writeAnthropicUsage(reply.usage) : undefined;
  const startUsage = usage ? { ...usage, output_tokens: 0 } : undefined;
  const message: Record<string, unknown> = {
    id: anthropicReplyId(reply),
    type: "message",
    role: "assistant",
    model: reply.model ?? "gatecheck-mock",
    content: [],
    stop_reason: null,
    stop_sequence: null,
  };
  if (startUsage) message.usage = startUsage;
  const events: StreamEvent[] = [ev("message_start", { message })];
  const nth = kindIndexes(reply.parts);
  let blockIndex = 0;
  let pendingCalls: StreamEvent[][] = [];
  const flushCalls = () => {
    events.push(
      ...(plan.interleaveToolCalls
        ? interleave(pendingCalls).map((x) => x.item)
        : pendingCalls.flat()),
    );
    pendingCalls = [];
  };
  reply.parts.forEach((part, i) => {
    const n = nth[i] ?? 0;
    if (part.type !== "tool-call") flushCalls();
    const block = anthropicBlock(part);
    if (!block) return;
    const index = blockIndex++;
    const delta = (d: Record<string, unknown>) => ev("content_block_delta", { index, delta: d });
    const stop = ev("content_block_stop", { index });
    switch (part.type) {
      case "text":
      case "refusal": {
        events.push(
          ev("content_block_start", { index, content_block: { type: "text", text: "" } }),
        );
        for (const piece of chunksFor(part.text, plan.textChunks, n, plan.textChunkSize, "text")) {
          events.push(delta({ type: "text_delta", text: piece }));
        }
        events.push(stop);
        break;
      }
      case "thinking":
      case "reasoning": {
        if (block.type === "redacted_thinking") {
          events.push(ev("content_block_start", { index, content_block: block }), stop);
          break;
        }
        events.push(
          ev("content_block_start", {
            index,
            content_block: { type: "thinking", thinking: "", signature: "" },
          }),
        );
        const chunks =
          part.type === "thinking"
            ? chunksFor(part.text, plan.thinkingChunks, n, plan.textChunkSize, "thinking")
            : chunksFor(part.text, plan.textChunks, n, plan.textChunkSize, "text");
        for (const piece of chunks) events.push(delta({ type: "thinking_delta", thinking: piece }));
        if (part.type === "thinking" && part.signature !== undefined) {
          events.push(delta({ type: "signature_delta", signature: part.signature }));
        }
        events.push(stop);
        break;
      }
      case "tool-call": {
        const fragments = chunksFor(
          part.arguments,
          plan.toolArgumentChunks,
          n,
          plan.toolArgumentChunkSize,
          "tool call",
        ).filter((f) => f !== "");
        pendingCalls.push([
          ev("content_block_start", {
            index,
            content_block: { type: "tool_use", id: part.id, name: part.name, input: {} },
          }),
          ...fragments.map((f) => delta({ type: "input_json_delta", partial_json: f })),
          stop,
        ]);
        break;
      }
      default:
        break;
    }
  });
  flushCalls();
  const messageDelta: Record<string, unknown> = {
    delta: { stop_reason: anthropicStopReason(reply), stop_sequence: reply.stopSequence ?? null },
  };
  if (usage)
    messageDelta.usage =
      usagePlan === "with-finish" ? usage : { output_tokens: usage.output_tokens };
  events.push(ev("message_delta", messageDelta), ev("message_stop", {}));
  return { events, terminal: 1 };
}

export function anthropicErrorEvent(
  error: ReplyError,
  _index: number,
  plan: StreamPlan,
): StreamEvent {
  return {
    event: "error",
    data: eventJson(
      writeAnthropicErrorObject(error.status ?? 529, error.message ?? "", error.type),
      plan,
    ),
  };
}

export function anthropicPing(plan: StreamPlan): StreamEvent {
  return { event: "ping", data: eventJson({ type: "ping" }, plan) };
}
