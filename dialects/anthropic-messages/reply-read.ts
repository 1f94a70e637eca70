/**
 * Anthropic Messages JSON → canonical reply. Tool input objects become their JSON string;
 * redacted_thinking becomes a redacted thinking part whose signature is the opaque `data`.
 *
 * @see https://docs.anthropic.com/en/api/messages
 */
import type { CanonicalReply, Part } from "../canonical.ts";
import { asRecord, asString, isRecord, type JsonRecord, unknownKeys } from "../json.ts";
import { readAnthropicError } from "./error-body.ts";
import { anthropicStopFromWire } from "./stop-reason.ts";
import { readAnthropicUsage } from "./usage.ts";

const KNOWN = ["id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage"];

export function anthropicPart(block: JsonRecord): Part {
  switch (block.type) {
    case "text":
      return { type: "text", text: asString(block.text) ?? "" };
    case "thinking": {
      const part: Part = { type: "thinking", text: asString(block.thinking) ?? "" };
      const signature = asString(block.signature);
      if (signature !== undefined) part.signature = signature;
      return part;
    }
    case "redacted_thinking":
      return { type: "thinking", text: "", signature: asString(block.data) ?? "", redacted: true };
    case "tool_use":
      return {
        type: "tool-call",
        id: asString(block.id) ?? "",
        name: asString(block.name) ?? "",
        arguments: block.input === undefined ? "" : JSON.stringify(block.input),
      };
    default:
      return { type: "unknown", raw: block };
  }
}

export function readAnthropicReply(body: unknown): CanonicalReply {
  const reply: CanonicalReply = { dialect: "anthropic-messages", parts: [], extras: {} };
  const record = asRecord(body);
  if (!record) {
    reply.error = { message: "reply body is not a JSON object", raw: body };
    return reply;
  }
  const error = readAnthropicError(record);
  if (error) {
    reply.error = { ...error, raw: record.error };
    return reply;
  }
  reply.extras = unknownKeys(record, KNOWN);
  const id = asString(record.id);
  if (id !== undefined) reply.id = id;
  const model = asString(record.model);
  if (model !== undefined) reply.model = model;
  // A loop, not flatMap: flatMap's callback and inner arrays cost more than the read itself.
  const content = record.content;
  if (Array.isArray(content)) {
    for (const b of content) if (isRecord(b)) reply.parts.push(anthropicPart(b));
  }
  const stop = asString(record.stop_reason);
  if (stop !== undefined) {
    reply.rawStopReason = stop;
    reply.stopReason = anthropicStopFromWire(stop);
  }
  const sequence = asString(record.stop_sequence);
  if (sequence !== undefined) reply.stopSequence = sequence;
  const usage = readAnthropicUsage(record.usage);
  if (usage) reply.usage = usage;
  return reply;
}
