/**
 * Ollama NDJSON stream → canonical reply. Each line is a chat object with a piece of
 * `message.content` or `message.thinking`, or whole tool calls; the line with `done: true`
 * is terminal and carries done_reason and the counts. An `{"error": "..."}` line is a
 * mid-stream error.
 *
 * @see https://github.com/ollama/ollama/blob/main/docs/api.md#chat-request-streaming
 */
import type { CanonicalReply } from "../canonical.ts";
import { asArray, asRecord, asString } from "../json.ts";
import { type StreamReader, StreamState } from "../reply-parts.ts";
import type { ReceivedEvent } from "../sse.ts";
import { readOllamaError } from "./error-body.ts";
import { ollamaToolCallPart } from "./reply-read.ts";
import { ollamaStopFromWire } from "./stop-reason.ts";
import { readOllamaUsage } from "./usage.ts";

export function createOllamaStreamReader(): StreamReader {
  return new OllamaStreamReader();
}

/** A class, not a closure factory: one is made per stream read, and its methods are shared. */
class OllamaStreamReader implements StreamReader {
  private readonly state = new StreamState("ollama");
  private calls = 0;

  malformed(why: string): void {
    this.state.malformed(why);
  }

  push(event: ReceivedEvent): void {
    const { state } = this;
    const { assembler: parts, reply } = state;
    const n = state.count();
    const line = state.jsonObject(event.data, n, "line");
    if (!line) return;
    const error = readOllamaError(line);
    if (error) {
      state.error({ ...error, raw: line.error });
      return;
    }
    const model = asString(line.model);
    if (model !== undefined) reply.model = model;
    if (typeof line.created_at === "string" && reply.extras.created_at === undefined) {
      reply.extras.created_at = line.created_at;
    }
    const message = asRecord(line.message);
    const thinking = asString(message?.thinking);
    if (thinking) parts.text("reasoning", "reasoning", thinking);
    const content = asString(message?.content);
    if (content) parts.text("text", "text", content);
    for (const raw of asArray(message?.tool_calls) ?? []) {
      const call = ollamaToolCallPart(raw);
      if (call.type === "tool-call")
        parts.openTool(`call:${this.calls++}`, call.id, call.name, call.arguments);
    }
    if (line.done === true) {
      const reason = asString(line.done_reason);
      if (reason !== undefined) reply.rawStopReason = reason;
      const usage = readOllamaUsage(line);
      if (usage) reply.usage = usage;
      state.terminal("done");
    }
  }

  finish(): CanonicalReply {
    const { reply, assembler } = this.state;
    if (reply.rawStopReason !== undefined) {
      reply.stopReason = ollamaStopFromWire(reply.rawStopReason, assembler.hasToolCalls());
    }
    return this.state.finish();
  }
}
