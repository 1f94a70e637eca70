/**
 * Gemini `streamGenerateContent?alt=sse` → canonical reply. Each event is a whole
 * GenerateContentResponse; consecutive pieces of the same kind (text, thought) are joined
 * into one part, function calls arrive whole. The chunk carrying finishReason is terminal;
 * usageMetadata is taken from the last chunk that has it.
 *
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
import { asArray, asRecord, asString, tryParseJson } from "../json.ts";
import { type StreamReader, StreamState } from "../reply-parts.ts";
import type { ReceivedEvent } from "../sse.ts";
import { readGeminiError } from "./error-body.ts";
import { geminiPartToCanonical } from "./reply-read.ts";
import { geminiStopFromWire } from "./stop-reason.ts";
import { readGeminiUsage } from "./usage.ts";

export function createGeminiStreamReader(): StreamReader {
  const state = new StreamState("gemini");
  const { assembler: parts, reply } = state;
  let run = 0;
  let runKind: string | undefined;
  let calls = 0;

  const runKey = (kind: string) => {
    if (kind !== runKind) {
      run++;
      runKind = kind;
    }
    return `run:${run}`;
  };

  return {
    malformed: (why) => state.malformed(why),
    push(event: ReceivedEvent) {
      const n = state.count();
      const parsed = tryParseJson(event.data);
      const value =
        parsed.ok && Array.isArray(parsed.value)
          ? parsed.value[0]
          : parsed.ok
            ? parsed.value
            : undefined;
      const chunk = asRecord(value);
      if (!chunk) {
        state.malformed(
          `event ${n}: ${parsed.ok ? "not a JSON object" : `not JSON (${parsed.error})`}`,
        );
        return;
      }
      const error = readGeminiError(chunk);
      if (error) {
        state.error({ ...error, raw: chunk.error });
        return;
      }
      const id = asString(chunk.responseId);
      if (id !== undefined) reply.id = id;
      const model = asString(chunk.modelVersion);
      if (model !== undefined) reply.model = model;
      const candidate = asRecord(asArray(chunk.candidates)?.[0]);
      for (const raw of asArray(asRecord(candidate?.content)?.parts) ?? []) {
        const record = asRecord(raw);
        if (!record) continue;
        const part = geminiPartToCanonical(record);
        if (part.type === "tool-call") {
          const key = `call:${calls++}`;
          runKind = undefined;
          parts.openTool(key, part.id, part.name, part.arguments);
          if (part.signature !== undefined) parts.toolSignature(key, part.signature);
        } else if (part.type === "thinking" || part.type === "text") {
          if (part.text === "" && part.type === "text") continue;
          const key = runKey(part.type);
          parts.text(key, part.type, part.text);
          if (part.type === "thinking" && part.signature !== undefined) {
            parts.signature(key, part.signature);
            // A signature closes its thought: the next thought piece is a new part.
            runKind = undefined;
          }
          const textSignature = part.type === "text" ? part.extras?.thoughtSignature : undefined;
          if (typeof textSignature === "string") {
            // No text slot carries a signature: it follows as an empty thinking part.
            parts.signature(runKey("signature"), textSignature);
            runKind = undefined;
          }
        } else {
          state.malformed(
            `event ${n}: part of unknown kind ${JSON.stringify(Object.keys(record))}`,
          );
        }
      }
      const usage = readGeminiUsage(chunk.usageMetadata);
      if (usage) reply.usage = usage;
      const finish = asString(candidate?.finishReason);
      if (finish !== undefined) {
        reply.rawStopReason = finish;
        state.terminal("finishReason");
      }
    },
    finish() {
      if (reply.rawStopReason !== undefined) {
        reply.stopReason = geminiStopFromWire(reply.rawStopReason, parts.hasToolCalls());
      }
      return state.finish();
    },
  };
}
