/**
 * OpenAI Responses JSON → canonical reply. `message` items give text and refusal parts,
 * `reasoning` items a thinking part (summary texts, `encrypted_content` as its signature) or
 * a reasoning part (`reasoning_text` content), `function_call` items tool calls whose id is
 * the `call_id`. The stop reason comes from status and incomplete_details, with a tool turn
 * inferred from function_call items.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
import type { CanonicalReply, EmptiedItem, Part } from "../canonical.ts";
import { asArray, asRecord, asString, type JsonRecord, unknownKeys } from "../json.ts";
import { readResponsesError } from "./error-body.ts";
import { responsesStopFromWire, responsesStopWire } from "./stop-reason.ts";
import { readResponsesUsage } from "./usage.ts";

const KNOWN = [
  "id",
  "object",
  "created_at",
  "status",
  "error",
  "incomplete_details",
  "model",
  "output",
  "usage",
];

/** Summary texts of a reasoning item, joined as paragraphs. */
export function summaryText(item: JsonRecord): string | undefined {
  const texts = (asArray(item.summary) ?? []).flatMap((s) => asString(asRecord(s)?.text) ?? []);
  return texts.length ? texts.join("\n\n") : undefined;
}

export function itemParts(item: JsonRecord): Part[] {
  switch (item.type) {
    case "message":
      return (asArray(item.content) ?? []).flatMap((c): Part[] => {
        const entry = asRecord(c);
        if (entry?.type === "output_text")
          return [{ type: "text", text: asString(entry.text) ?? "" }];
        if (entry?.type === "refusal")
          return [{ type: "refusal", text: asString(entry.refusal) ?? "" }];
        return [{ type: "unknown", raw: c }];
      });
    case "reasoning": {
      const out: Part[] = [];
      const summary = summaryText(item);
      const signature = asString(item.encrypted_content);
      if (summary !== undefined || signature !== undefined) {
        const part: Part = { type: "thinking", text: summary ?? "" };
        if (signature !== undefined) part.signature = signature;
        out.push(part);
      }
      const texts = (asArray(item.content) ?? []).flatMap((c) => asString(asRecord(c)?.text) ?? []);
      if (texts.length) out.push({ type: "reasoning", text: texts.join("") });
      return out;
    }
    case "function_call":
      return [
        {
          type: "tool-call",
          id: asString(item.call_id) ?? "",
          name: asString(item.name) ?? "",
          arguments: asString(item.arguments) ?? "",
        },
      ];
    default:
      return [{ type: "unknown", raw: item }];
  }
}

/**
 * Message items holding nothing (no content entry): read as no parts, kept for the one-sided
 * invariants. A reasoning item with an empty summary is not one: reasoning models send those.
 */
export function phantomItems(output: readonly unknown[]): EmptiedItem[] {
  const out: EmptiedItem[] = [];
  output.forEach((i, n) => {
    const item = asRecord(i);
    if (item?.type === "message" && (asArray(item.content) ?? []).length === 0) {
      out.push({ kind: "item", at: `output[${n}]` });
    }
  });
  return out;
}

/** Status, stop reason and error of a response object (also used on a stream's terminal event). */
export function applyStatus(reply: CanonicalReply, response: JsonRecord): void {
  const status = asString(response.status);
  if (status === undefined) return;
  const reason = asString(asRecord(response.incomplete_details)?.reason);
  reply.rawStopReason = responsesStopWire(status, reason);
  reply.stopReason = responsesStopFromWire(
    reply.rawStopReason,
    reply.parts.some((p) => p.type === "tool-call"),
  );
  const error = asRecord(response.error);
  if (error) {
    reply.error = { type: asString(error.code), message: asString(error.message), raw: error };
  }
}

export function readResponsesReply(body: unknown): CanonicalReply {
  const reply: CanonicalReply = { dialect: "openai-responses", parts: [], extras: {} };
  const record = asRecord(body);
  if (!record) {
    reply.error = { message: "reply body is not a JSON object", raw: body };
    return reply;
  }
  if (record.object !== "response" && record.error) {
    reply.error = { ...(readResponsesError(record) ?? {}), raw: record.error };
    return reply;
  }
  reply.extras = unknownKeys(record, KNOWN);
  if (typeof record.created_at === "number") reply.extras.created_at = record.created_at;
  const id = asString(record.id);
  if (id !== undefined) reply.id = id;
  const model = asString(record.model);
  if (model !== undefined) reply.model = model;
  const output = asArray(record.output) ?? [];
  reply.parts = output.flatMap((i) => {
    const item = asRecord(i);
    return item ? itemParts(item) : [];
  });
  const emptied = phantomItems(output);
  if (emptied.length > 0) reply.emptied = emptied;
  applyStatus(reply, record);
  const usage = readResponsesUsage(record.usage);
  if (usage) reply.usage = usage;
  return reply;
}
