/**
 * Gemini GenerateContentResponse JSON → canonical reply. Reads the first candidate.
 * `thought: true` parts are thinking (their thoughtSignature is the signature); a
 * functionCall's object `args` becomes its JSON string, its `id` (absent on older models)
 * the call id or "". A prompt blocked before generation (promptFeedback.blockReason, no
 * candidates) reads as content_filter.
 *
 * @see https://ai.google.dev/api/generate-content#generatecontentresponse
 */
import type { CanonicalReply, Part } from "../canonical.ts";
import { asArray, asRecord, asString, isRecord, type JsonRecord, unknownKeys } from "../json.ts";
import { readGeminiError } from "./error-body.ts";
import { geminiStopFromWire } from "./stop-reason.ts";
import { readGeminiUsage } from "./usage.ts";

const KNOWN = ["candidates", "usageMetadata", "modelVersion", "responseId"];

export function geminiPartToCanonical(raw: JsonRecord): Part {
  const signature = asString(raw.thoughtSignature);
  const fc = asRecord(raw.functionCall);
  if (fc) {
    const part: Part = {
      type: "tool-call",
      id: asString(fc.id) ?? "",
      name: asString(fc.name) ?? "",
      arguments: fc.args === undefined ? "" : JSON.stringify(fc.args),
    };
    if (signature !== undefined) part.signature = signature;
    return part;
  }
  if (typeof raw.text === "string") {
    // A signature on an empty non-thought part (Gemini 3 ends turns so) is reasoning state.
    if (raw.thought === true || (raw.text === "" && signature !== undefined)) {
      const part: Part = { type: "thinking", text: raw.text };
      if (signature !== undefined) part.signature = signature;
      return part;
    }
    const part: Part = { type: "text", text: raw.text };
    if (signature !== undefined) part.extras = { thoughtSignature: signature };
    return part;
  }
  return { type: "unknown", raw };
}

export function readGeminiReply(body: unknown): CanonicalReply {
  const reply: CanonicalReply = { dialect: "gemini", parts: [], extras: {} };
  const record = asRecord(Array.isArray(body) ? body[0] : body);
  if (!record) {
    reply.error = { message: "reply body is not a JSON object", raw: body };
    return reply;
  }
  const error = readGeminiError(record);
  if (error) {
    reply.error = { ...error, raw: record.error };
    return reply;
  }
  reply.extras = unknownKeys(record, KNOWN);
  const id = asString(record.responseId);
  if (id !== undefined) reply.id = id;
  const model = asString(record.modelVersion);
  if (model !== undefined) reply.model = model;
  const candidate = asRecord(asArray(record.candidates)?.[0]);
  // A loop, not flatMap: flatMap's callback and inner arrays cost more than the read itself.
  const parts = asRecord(candidate?.content)?.parts;
  let calls = false;
  if (Array.isArray(parts)) {
    for (const p of parts) {
      if (!isRecord(p)) continue;
      const part = geminiPartToCanonical(p);
      if (part.type === "tool-call") calls = true;
      reply.parts.push(part);
    }
  }
  const finish = asString(candidate?.finishReason);
  const blocked = asString(asRecord(record.promptFeedback)?.blockReason);
  if (finish !== undefined) {
    reply.rawStopReason = finish;
    reply.stopReason = geminiStopFromWire(finish, calls);
  } else if (blocked !== undefined && !candidate) {
    reply.rawStopReason = blocked;
    reply.stopReason = "content_filter";
  }
  const usage = readGeminiUsage(record.usageMetadata);
  if (usage) reply.usage = usage;
  return reply;
}
