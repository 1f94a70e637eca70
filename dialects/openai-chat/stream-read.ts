/**
 * OpenAI Chat Completions stream → canonical reply. Chunks are `chat.completion.chunk`
 * objects; the stream ends with `data: [DONE]`. Tool-call deltas are assembled by `index`,
 * and a delta carrying a new `id` opens a new call even at a reused index (some servers send
 * every call at index 0), so interleaved calls never mix.
 *
 * @see https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 */
import type { CanonicalReply } from "../canonical.ts";
import { asArray, asNumber, asRecord, asString, unknownKeys } from "../json.ts";
import { type StreamReader, StreamState } from "../reply-parts.ts";
import type { ReceivedEvent } from "../sse.ts";
import { contentBlocksDelta } from "./content-blocks.ts";
import { readOpenAiError } from "./error-body.ts";
import { chatStopFromWire } from "./stop-reason.ts";
import { readChatUsage } from "./usage.ts";

export function createChatStreamReader(): StreamReader {
  return new ChatStreamReader();
}

/** A class, not a closure factory: one is made per stream read, and its methods are shared. */
class ChatStreamReader implements StreamReader {
  private readonly state = new StreamState("openai-chat");
  private readonly keyByIndex = new Map<number, string>();
  private readonly keyById = new Map<string, string>();
  private calls = 0;
  private lastKey: string | undefined;
  private first = true;

  malformed(why: string): void {
    this.state.malformed(why);
  }

  push(event: ReceivedEvent): void {
    const { state } = this;
    const { assembler: parts, reply } = state;
    const n = state.count();
    if (event.data === "[DONE]") {
      state.terminal("[DONE]");
      return;
    }
    const chunk = state.jsonObject(event.data, n);
    if (!chunk) return;
    const error = readOpenAiError(chunk);
    if (error) {
      state.error({ ...error, raw: chunk.error });
      return;
    }
    if (this.first) {
      this.first = false;
      reply.extras = unknownKeys(chunk, ["id", "object", "model", "choices", "usage"]);
      const id = asString(chunk.id);
      if (id !== undefined) reply.id = id;
      const model = asString(chunk.model);
      if (model !== undefined) reply.model = model;
    }
    const choice = asRecord(asArray(chunk.choices)?.[0]);
    const delta = asRecord(choice?.delta);
    if (delta) {
      const reasoning = asString(delta.reasoning_content) ?? asString(delta.reasoning);
      if (reasoning) parts.text("reasoning", "reasoning", reasoning);
      contentBlocksDelta(delta.content_blocks, parts);
      if (typeof delta.content === "string" && delta.content !== "") {
        parts.text("text", "text", delta.content);
      }
      if (typeof delta.refusal === "string" && delta.refusal !== "") {
        parts.text("refusal", "refusal", delta.refusal);
      }
      const toolCalls = asArray(delta.tool_calls);
      if (toolCalls) for (const tc of toolCalls) this.toolDelta(tc);
    }
    const finish = asString(choice?.finish_reason);
    if (finish !== undefined) {
      reply.rawStopReason = finish;
      reply.stopReason = chatStopFromWire(finish);
    }
    const usage = readChatUsage(chunk.usage);
    if (usage) reply.usage = usage;
  }

  finish(): CanonicalReply {
    return this.state.finish();
  }

  private toolDelta(value: unknown): void {
    const tc = asRecord(value);
    if (!tc) return;
    const parts = this.state.assembler;
    // The first delta of a call carries `id` (possibly "", from a backend without ids) or at
    // least a name; later deltas carry neither. Some servers repeat the id on every delta.
    const id = asString(tc.id);
    const index = asNumber(tc.index);
    const fn = asRecord(tc.function);
    const name = asString(fn?.name);
    const args = asString(fn?.arguments) ?? "";
    let key = id ? this.keyById.get(id) : undefined;
    const byPosition = index !== undefined ? this.keyByIndex.get(index) : this.lastKey;
    const opens =
      key === undefined && (id !== undefined || (name !== undefined && byPosition === undefined));
    if (opens) {
      key = `tool:${this.calls++}`;
      if (id) this.keyById.set(id, key);
      parts.openTool(key, id ?? "", name, args);
    } else {
      key ??= byPosition;
      if (key === undefined) {
        parts.toolArgs("orphan", args);
        return;
      }
      if (name !== undefined) parts.openTool(key, undefined, name);
      parts.toolArgs(key, args);
    }
    if (index !== undefined) this.keyByIndex.set(index, key);
    this.lastKey = key;
  }
}
