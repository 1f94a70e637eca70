/**
 * A Gemini JSON reply body: one response object, or the JSON array of responses that
 * streamGenerateContent answers without `alt=sse`, read as the stream it is (its lifecycle
 * left out: the array is one JSON document, not events).
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
import type { CanonicalReply } from "../canonical.ts";
import { readGeminiReply } from "./reply-read.ts";
import { createGeminiStreamReader } from "./stream-read.ts";

export function readGeminiBody(body: unknown): CanonicalReply {
  if (!Array.isArray(body) || body.length <= 1) return readGeminiReply(body);
  const reader = createGeminiStreamReader();
  for (const element of body) reader.pushValue(element);
  const { stream: _lifecycle, ...reply } = reader.finish();
  return reply;
}
