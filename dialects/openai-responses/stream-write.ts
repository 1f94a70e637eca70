/**
 * Canonical reply → OpenAI Responses typed stream events, each with its `sequence_number`:
 * response.created, response.in_progress, per output item output_item.added / deltas /
 * done events / output_item.done, then response.completed (or response.incomplete,
 * response.failed) carrying the whole response with usage.
 *
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
import type { CanonicalReply, ReplyError } from "../canonical.ts";
import type { StreamEvent, WrittenEvents } from "../sse.ts";
import { chunksFor, eventJson, interleave, kindIndexes, type StreamPlan } from "../stream-plan.ts";
import {
  contentEntry,
  itemBody,
  outputItems,
  responsesStatus,
  writeResponsesReply,
} from "./reply-write.ts";

type Draft = Record<string, unknown> & { type: string };

export function writeResponsesEvents(reply: CanonicalReply, plan: StreamPlan): WrittenEvents {
  const drafts: Draft[] = [];
  const inProgress = writeResponsesReply(reply, "in_progress");
  drafts.push({ type: "response.created", response: inProgress });
  drafts.push({ type: "response.in_progress", response: inProgress });
  const nth = kindIndexes(reply.parts);
  const nthOf = (part: unknown) => nth[reply.parts.indexOf(part as never)] ?? 0;
  let pendingCalls: Draft[][] = [];
  const flushCalls = () => {
    drafts.push(
      ...(plan.interleaveToolCalls
        ? interleave(pendingCalls).map((x) => x.item)
        : pendingCalls.flat()),
    );
    pendingCalls = [];
  };
  outputItems(reply).forEach((item, outputIndex) => {
    const at = { item_id: item.id, output_index: outputIndex };
    const done = {
      type: "response.output_item.done",
      output_index: outputIndex,
      item: itemBody(item),
    };
    if (item.kind !== "function_call") flushCalls();
    const part = item.parts[0];
    if (item.kind === "function_call" && part?.type === "tool-call") {
      const fragments = chunksFor(
        part.arguments,
        plan.toolArgumentChunks,
        nthOf(part),
        plan.toolArgumentChunkSize,
        "tool call",
      ).filter((f) => f !== "");
      pendingCalls.push([
        {
          type: "response.output_item.added",
          output_index: outputIndex,
          item: { ...itemBody(item), status: "in_progress", arguments: "" },
        },
        ...fragments.map((delta) => ({
          type: "response.function_call_arguments.delta",
          ...at,
          delta,
        })),
        { type: "response.function_call_arguments.done", ...at, arguments: part.arguments },
        done,
      ]);
      return;
    }
    if (item.kind === "reasoning") {
      drafts.push({
        type: "response.output_item.added",
        output_index: outputIndex,
        item: { id: item.id, type: "reasoning", summary: [] },
      });
      if (part?.type === "thinking") {
        const s = { ...at, summary_index: 0 };
        drafts.push({
          type: "response.reasoning_summary_part.added",
          ...s,
          part: { type: "summary_text", text: "" },
        });
        for (const delta of chunksFor(
          part.text,
          plan.thinkingChunks,
          nthOf(part),
          plan.textChunkSize,
          "thinking",
        )) {
          drafts.push({ type: "response.reasoning_summary_text.delta", ...s, delta });
        }
        drafts.push({ type: "response.reasoning_summary_text.done", ...s, text: part.text });
        drafts.push({
          type: "response.reasoning_summary_part.done",
          ...s,
          part: { type: "summary_text", text: part.text },
        });
      } else if (part?.type === "reasoning") {
        const c = { ...at, content_index: 0 };
        for (const delta of chunksFor(
          part.text,
          plan.textChunks,
          nthOf(part),
          plan.textChunkSize,
          "text",
        )) {
          drafts.push({ type: "response.reasoning_text.delta", ...c, delta });
        }
        drafts.push({ type: "response.reasoning_text.done", ...c, text: part.text });
      }
      drafts.push(done);
      return;
    }
    drafts.push({
      type: "response.output_item.added",
      output_index: outputIndex,
      item: { id: item.id, type: "message", status: "in_progress", role: "assistant", content: [] },
    });
    item.parts.forEach((p, contentIndex) => {
      if (p.type !== "text" && p.type !== "refusal") return;
      const c = { ...at, content_index: contentIndex };
      const refusal = p.type === "refusal";
      drafts.push({
        type: "response.content_part.added",
        ...c,
        part: refusal
          ? { type: "refusal", refusal: "" }
          : { type: "output_text", text: "", annotations: [] },
      });
      for (const delta of chunksFor(
        p.text,
        plan.textChunks,
        nthOf(p),
        plan.textChunkSize,
        "text",
      )) {
        drafts.push(
          refusal
            ? { type: "response.refusal.delta", ...c, delta }
            : { type: "response.output_text.delta", ...c, delta, logprobs: [] },
        );
      }
      drafts.push(
        refusal
          ? { type: "response.refusal.done", ...c, refusal: p.text }
          : { type: "response.output_text.done", ...c, text: p.text, logprobs: [] },
      );
      drafts.push({ type: "response.content_part.done", ...c, part: contentEntry(p) });
    });
    drafts.push(done);
  });
  flushCalls();
  const final = writeResponsesReply(reply);
  if ((plan.usage ?? "final") === "omit") final.usage = null;
  const { status } = responsesStatus(reply);
  const terminalType =
    status === "incomplete"
      ? "response.incomplete"
      : status === "failed"
        ? "response.failed"
        : "response.completed";
  drafts.push({ type: terminalType, response: final });
  const events = drafts.map((d, sequence) => ({
    event: d.type,
    data: eventJson({ ...d, sequence_number: sequence }, plan),
  }));
  return { events, terminal: 1 };
}

export function responsesErrorEvent(
  error: ReplyError,
  index: number,
  plan: StreamPlan,
): StreamEvent {
  return {
    event: "error",
    data: eventJson(
      {
        type: "error",
        code: error.type ?? "server_error",
        message: error.message ?? "",
        param: null,
        sequence_number: index,
      },
      plan,
    ),
  };
}
