/**
 * Anthropic Messages stream → canonical reply. Content blocks are assembled by their
 * `index`; usage is message_start's, updated by message_delta's (which carries the final
 * output_tokens and, in newer API versions, the input counts too); message_stop is terminal.
 * The `event:` name and the data's `type` must agree; a mismatch is malformed. Each block's
 * lifecycle (start, deltas, stop) is kept by `BlockLifecycle`: a delta after its block's stop is
 * not assembled (a block, tool arguments included, is what it was at its stop).
 *
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
import { BlockLifecycle } from "../block-lifecycle.ts";
import type { CanonicalReply } from "../canonical.ts";
import { asNumber, asRecord, asString, type JsonRecord, unknownKeys } from "../json.ts";
import { type StreamReader, StreamState } from "../reply-parts.ts";
import type { ReceivedEvent } from "../sse.ts";
import { readAnthropicError } from "./error-body.ts";
import { anthropicPart } from "./reply-read.ts";
import { anthropicStopFromWire } from "./stop-reason.ts";
import { readAnthropicUsage } from "./usage.ts";

export function createAnthropicStreamReader(): StreamReader {
  return new AnthropicStreamReader();
}

const blockKey = (index: unknown) => `block:${asNumber(index) ?? "?"}`;

const MESSAGE_KEYS = [
  "id",
  "type",
  "role",
  "model",
  "content",
  "stop_reason",
  "stop_sequence",
  "usage",
];

/** A class, not a closure factory: one is made per stream read, and its methods are shared. */
class AnthropicStreamReader implements StreamReader {
  private readonly state = new StreamState("anthropic-messages");
  private usage: JsonRecord = {};
  private readonly blocks = new BlockLifecycle();

  malformed(why: string): void {
    this.state.malformed(why);
  }

  push(event: ReceivedEvent): void {
    const { state } = this;
    const { reply } = state;
    const n = state.count();
    const data = state.jsonObject(event.data, n);
    if (!data) return;
    const type = asString(data.type);
    if (event.event !== undefined && event.event !== type) {
      state.malformed(`event ${n}: event name ${event.event} but data type ${type}`);
    }
    switch (type) {
      case "message_start": {
        if (reply.id !== undefined) state.malformed(`event ${n}: a second message_start`);
        const message = asRecord(data.message) ?? {};
        reply.extras = unknownKeys(message, MESSAGE_KEYS);
        const id = asString(message.id);
        if (id !== undefined) reply.id = id;
        const model = asString(message.model);
        if (model !== undefined) reply.model = model;
        this.usage = { ...this.usage, ...(asRecord(message.usage) ?? {}) };
        break;
      }
      case "content_block_start": {
        const k = blockKey(data.index);
        const before = this.blocks.faults.length;
        this.blocks.start(k, n, type);
        if (this.blocks.faults.length > before) {
          const fault = this.blocks.faults[before]?.fault;
          state.malformed(
            fault === "started-twice"
              ? `event ${n}: content_block_start for ${k}, which was already started`
              : `event ${n}: content_block_start for ${k} after its content_block_stop`,
          );
        }
        this.onStart(data);
        break;
      }
      case "content_block_delta":
        this.onDelta(data, n);
        break;
      case "content_block_stop": {
        const k = blockKey(data.index);
        const before = this.blocks.faults.length;
        this.blocks.stop(k, n, type);
        if (this.blocks.faults.length > before) {
          const fault = this.blocks.faults[before]?.fault;
          state.malformed(
            fault === "no-start"
              ? `event ${n}: content_block_stop for ${k}, which was never started`
              : `event ${n}: content_block_stop for ${k} after its content_block_stop`,
          );
        }
        break;
      }
      case "ping":
        break;
      case "message_delta": {
        const delta = asRecord(data.delta);
        const stop = asString(delta?.stop_reason);
        if (stop !== undefined) {
          reply.rawStopReason = stop;
          reply.stopReason = anthropicStopFromWire(stop);
        }
        const sequence = asString(delta?.stop_sequence);
        if (sequence !== undefined) reply.stopSequence = sequence;
        this.usage = { ...this.usage, ...(asRecord(data.usage) ?? {}) };
        break;
      }
      case "message_stop":
        state.terminal("message_stop");
        break;
      case "error": {
        const error = readAnthropicError(data);
        state.error({ ...(error ?? {}), raw: data.error });
        break;
      }
      default:
        state.malformed(`event ${n}: unknown event type ${JSON.stringify(type)}`);
    }
  }

  finish(): CanonicalReply {
    const { state } = this;
    const read = readAnthropicUsage(this.usage);
    if (read && Object.keys(read).length) state.reply.usage = read;
    const before = this.blocks.faults.length;
    const blocks = this.blocks.finish(state.lifecycle.complete, "message_stop");
    for (const f of blocks.faults.slice(before)) {
      state.malformed(`${f.block}: never stopped before message_stop`);
    }
    const reply = state.finish();
    if (reply.stream) reply.stream.blocks = blocks;
    return reply;
  }

  private onStart(data: JsonRecord): void {
    const parts = this.state.assembler;
    const block = asRecord(data.content_block);
    const k = blockKey(data.index);
    if (!block) return;
    const part = anthropicPart(block);
    if (part.type === "tool-call") {
      // The start carries `input: {}`; the arguments are the input_json_delta fragments.
      parts.openTool(k, part.id, part.name);
    } else if (part.type === "thinking") {
      parts.text(k, "thinking", part.text);
      if (part.signature) parts.signature(k, part.signature, part.redacted === true);
    } else if (part.type === "text") {
      parts.text(k, "text", part.text, k);
    } else {
      // Server-tool blocks and newer block types: kept whole, as the JSON reader keeps them.
      parts.unknown(k, block);
    }
  }

  private onDelta(data: JsonRecord, n: number): void {
    const { state } = this;
    const parts = state.assembler;
    const delta = asRecord(data.delta);
    const k = blockKey(data.index);
    if (!this.blocks.delta(k, n, "content_block_delta")) {
      state.malformed(`event ${n}: delta for ${k} after its content_block_stop`);
      return;
    }
    // Deltas of a block kept whole (a server tool's input) are not ours to assemble.
    const kind = parts.kindOf(k);
    if (kind === "unknown") return;
    if (kind === undefined && delta?.type !== "input_json_delta") {
      state.malformed(`event ${n}: delta for ${k}, which was never started`);
    }
    switch (delta?.type) {
      case "text_delta":
        parts.text(k, "text", asString(delta.text) ?? "");
        break;
      case "thinking_delta":
        parts.text(k, "thinking", asString(delta.thinking) ?? "");
        break;
      case "signature_delta":
        parts.signature(k, asString(delta.signature) ?? "");
        break;
      case "input_json_delta":
        parts.toolArgs(k, asString(delta.partial_json) ?? "");
        break;
      case "citations_delta":
        // Citations have no canonical place yet; a documented delta is not malformed.
        break;
      default:
        state.malformed(`event ${n}: unknown delta type ${JSON.stringify(delta?.type)}`);
    }
  }
}
