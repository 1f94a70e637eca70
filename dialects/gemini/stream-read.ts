/**
 * Gemini `streamGenerateContent?alt=sse` → canonical reply. Each event is a whole
 * GenerateContentResponse; consecutive pieces of the same kind (text, thought) are joined
 * into one part, function calls arrive whole. The chunk carrying finishReason is terminal;
 * usageMetadata is taken from the last chunk that has it.
 *
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
import type { CanonicalReply } from "../canonical.ts";
import { asArray, asRecord, asString, tryParseJson } from "../json.ts";
import { type StreamReader, StreamState } from "../reply-parts.ts";
import type { ReceivedEvent } from "../sse.ts";
import { readGeminiError } from "./error-body.ts";
import { geminiPartToCanonical } from "./reply-read.ts";
import { geminiStopFromWire } from "./stop-reason.ts";
import { readGeminiUsage } from "./usage.ts";

export function createGeminiStreamReader(): GeminiStreamReader {
  return new GeminiStreamReader();
}

/** A class, not a closure factory: one is made per stream read, and its methods are shared. */
export class GeminiStreamReader implements StreamReader {
  private readonly state = new StreamState("gemini");
  private run = 0;
  private runKind: string | undefined;
  private calls = 0;

  malformed(why: string): void {
    this.state.malformed(why);
  }

  push(event: ReceivedEvent): void {
    const n = this.state.count();
    const parsed = tryParseJson(event.data);
    if (!parsed.ok) {
      this.state.malformed(`event ${n}: not JSON (${parsed.error})`);
      return;
    }
    this.read(parsed.value, n);
  }

  /** One element of Gemini's JSON-array answer, already parsed: read as one event. */
  pushValue(value: unknown): void {
    this.read(value, this.state.count());
  }

  /** One event's value: a GenerateContentResponse (or an array holding one). */
  private read(value: unknown, n: number): void {
    const { state } = this;
    const { assembler: parts, reply } = state;
    const chunk = asRecord(Array.isArray(value) ? value[0] : value);
    if (!chunk) {
      state.malformed(`event ${n}: not a JSON object`);
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
        const key = `call:${this.calls++}`;
        this.runKind = undefined;
        parts.openTool(key, part.id, part.name, part.arguments);
        if (part.signature !== undefined) parts.toolSignature(key, part.signature);
      } else if (part.type === "thinking" || part.type === "text") {
        if (part.text === "" && part.type === "text") continue;
        const key = this.runKey(part.type);
        parts.text(key, part.type, part.text);
        if (part.type === "thinking" && part.signature !== undefined) {
          parts.signature(key, part.signature);
          // A signature closes its thought: the next thought piece is a new part.
          this.runKind = undefined;
        }
        const textSignature = part.type === "text" ? part.extras?.thoughtSignature : undefined;
        if (typeof textSignature === "string") {
          // No text slot carries a signature: it follows as an empty thinking part.
          parts.signature(this.runKey("signature"), textSignature);
          this.runKind = undefined;
        }
      } else {
        state.malformed(`event ${n}: part of unknown kind ${JSON.stringify(Object.keys(record))}`);
      }
    }
    const usage = readGeminiUsage(chunk.usageMetadata);
    if (usage) reply.usage = usage;
    const finish = asString(candidate?.finishReason);
    if (finish !== undefined) {
      reply.rawStopReason = finish;
      state.terminal("finishReason");
    }
  }

  finish(): CanonicalReply {
    const { reply, assembler } = this.state;
    if (reply.rawStopReason !== undefined) {
      reply.stopReason = geminiStopFromWire(reply.rawStopReason, assembler.hasToolCalls());
    }
    return this.state.finish();
  }

  /** The slot of the current run of same-kind pieces, opening a new run on a change of kind. */
  private runKey(kind: string): string {
    if (kind !== this.runKind) {
      this.run++;
      this.runKind = kind;
    }
    return `run:${this.run}`;
  }
}
