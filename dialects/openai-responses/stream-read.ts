/**
 * OpenAI Responses stream → canonical reply. Parts are assembled per output item (by
 * `output_index`, or by `item_id` when only that is given), so interleaved function-call
 * argument deltas never mix. response.completed, response.incomplete and response.failed
 * are terminal; `sequence_number` must rise by one per event (a gap is malformed).
 *
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
import type { CanonicalReply } from "../canonical.ts";
import { asNumber, asRecord, asString, type JsonRecord, unknownKeys } from "../json.ts";
import { type StreamReader, StreamState } from "../reply-parts.ts";
import type { ReceivedEvent } from "../sse.ts";
import { readResponsesError } from "./error-body.ts";
import { applyStatus, itemParts, summaryText } from "./reply-read.ts";
import { readResponsesUsage } from "./usage.ts";

const TERMINAL = ["response.completed", "response.incomplete", "response.failed"];

/** Documented events that carry nothing the canonical reply needs beyond their deltas. */
const PASSIVE = new Set([
  "response.in_progress",
  "response.queued",
  "response.content_part.added",
  "response.content_part.done",
  "response.output_text.done",
  "response.output_text.annotation.added",
  "response.refusal.done",
  "response.reasoning_summary_part.added",
  "response.reasoning_summary_part.done",
  "response.reasoning_summary_text.done",
  "response.reasoning_text.done",
]);

const RESPONSE_KEYS = [
  "id",
  "object",
  "status",
  "error",
  "incomplete_details",
  "model",
  "output",
  "usage",
];

export function createResponsesStreamReader(): StreamReader {
  return new ResponsesStreamReader();
}

/** A class, not a closure factory: one is made per stream read, and its methods are shared. */
class ResponsesStreamReader implements StreamReader {
  private readonly state = new StreamState("openai-responses");
  private readonly indexByItem = new Map<string, number>();
  private readonly summaryIndexByKey = new Map<string, number>();
  private lastSequence: number | undefined;

  malformed(why: string): void {
    this.state.malformed(why);
  }

  push(event: ReceivedEvent): void {
    const { state } = this;
    const { assembler: parts, reply } = state;
    const n = state.count();
    const data = state.jsonObject(event.data, n);
    if (!data) return;
    const type = asString(data.type) ?? "";
    if (event.event !== undefined && event.event !== type) {
      state.malformed(`event ${n}: event name ${event.event} but data type ${type}`);
    }
    const sequence = asNumber(data.sequence_number);
    if (sequence !== undefined) {
      if (this.lastSequence !== undefined && sequence !== this.lastSequence + 1) {
        state.malformed(`event ${n}: sequence_number ${sequence} after ${this.lastSequence}`);
      }
      this.lastSequence = sequence;
    }
    const key = this.itemKey(data);
    switch (type) {
      case "response.created":
        this.onResponse(data);
        return;
      case "response.output_item.added": {
        const item = asRecord(data.item);
        const index = asNumber(data.output_index);
        const id = asString(item?.id);
        if (id !== undefined && index !== undefined) this.indexByItem.set(id, index);
        if (item?.type === "function_call") {
          parts.openTool(
            key,
            asString(item.call_id),
            asString(item.name),
            asString(item.arguments) ?? "",
          );
        }
        return;
      }
      case "response.output_text.delta":
        parts.text(
          `${key}:c${asNumber(data.content_index) ?? 0}`,
          "text",
          asString(data.delta) ?? "",
        );
        return;
      case "response.refusal.delta":
        parts.text(
          `${key}:c${asNumber(data.content_index) ?? 0}`,
          "refusal",
          asString(data.delta) ?? "",
        );
        return;
      case "response.reasoning_summary_text.delta": {
        // Summary parts are paragraphs of one thinking part, joined as the JSON reader joins them.
        const summaryIndex = asNumber(data.summary_index) ?? 0;
        const previous = this.summaryIndexByKey.get(key);
        const lead = previous !== undefined && previous !== summaryIndex ? "\n\n" : "";
        this.summaryIndexByKey.set(key, summaryIndex);
        parts.text(`${key}:summary`, "thinking", lead + (asString(data.delta) ?? ""));
        return;
      }
      case "response.reasoning_text.delta":
        parts.text(`${key}:text`, "reasoning", asString(data.delta) ?? "");
        return;
      case "response.function_call_arguments.delta":
        parts.toolArgs(key, asString(data.delta) ?? "");
        return;
      case "response.function_call_arguments.done":
        parts.toolArgsFinal(key, asString(data.arguments) ?? "");
        return;
      case "response.output_item.done":
        this.onItemDone(data);
        return;
      case "error":
        state.error({ ...(readResponsesError(data) ?? {}), raw: data });
        return;
      default:
        break;
    }
    if (TERMINAL.includes(type)) {
      this.onResponse(data);
      state.terminal(type);
      const response = asRecord(data.response);
      if (response) {
        // The status decides the stop reason; tool calls seen so far decide a tool turn.
        reply.parts = parts.parts();
        applyStatus(reply, response);
        if (reply.error) state.error(reply.error);
      }
      return;
    }
    if (!PASSIVE.has(type) && !type.startsWith("response.")) {
      state.malformed(`event ${n}: unknown event type ${JSON.stringify(type)}`);
    }
  }

  finish(): CanonicalReply {
    return this.state.finish();
  }

  private itemKey(data: JsonRecord): string {
    const byIndex = asNumber(data.output_index);
    const byId = asString(data.item_id);
    const index = byIndex ?? (byId !== undefined ? this.indexByItem.get(byId) : undefined);
    return `item:${index ?? byId ?? "?"}`;
  }

  private onResponse(data: JsonRecord): void {
    const { reply } = this.state;
    const response = asRecord(data.response);
    if (!response) return;
    const id = asString(response.id);
    if (id !== undefined) reply.id = id;
    const model = asString(response.model);
    if (model !== undefined) reply.model = model;
    const extras = unknownKeys(response, RESPONSE_KEYS);
    reply.extras = { ...reply.extras, ...extras };
    const usage = readResponsesUsage(response.usage);
    if (usage) reply.usage = usage;
  }

  private onItemDone(data: JsonRecord): void {
    const parts = this.state.assembler;
    const item = asRecord(data.item);
    if (!item) return;
    const key = this.itemKey(data);
    const itemPartList = itemParts(item);
    const [part] = itemPartList;
    if (item.type === "reasoning") {
      const signature = asString(item.encrypted_content);
      if (signature !== undefined) parts.signature(`${key}:summary`, signature);
      if (!summaryText(item)) return;
    }
    // The done item restates what the deltas built; it fills in only what no delta carried.
    if (item.type === "message") {
      // A message item holding nothing is a phantom (the JSON reader's phantomItems).
      if (itemPartList.length === 0) this.state.emptied.push({ kind: "item", at: key });
      itemPartList.forEach((p, contentIndex) => {
        const slot = `${key}:c${contentIndex}`;
        if (parts.kindOf(slot) !== undefined) return;
        // An empty text no delta carried stands in the item as the JSON reply's does.
        if (p.type === "text" || p.type === "refusal") parts.text(slot, p.type, p.text, slot);
      });
      return;
    }
    if (part?.type === "tool-call") {
      if (!parts.hasTool(key)) parts.openTool(key, part.id, part.name, part.arguments);
      else parts.toolArgsFinal(key, part.arguments);
    }
  }
}
