/**
 * Portkey's thinking carrier on the Chat wire: `content_blocks` beside a message's (or a
 * stream delta's) `content`, sent when the client opts out of strict OpenAI compliance
 * (`x-portkey-strict-open-ai-compliance: false`). Portkey documents it as where thinking comes
 * back ("the thinking content is in `response_chunk.choices[0].delta.content_blocks`"), so it is
 * read as a carrier like `reasoning_content`, and judged by value.
 *
 * Shapes (Portkey 1.15.2, read in its build): a reply's `message.content_blocks` holds the
 * Anthropic content blocks other than tool calls as they came (`{type: "thinking", thinking,
 * signature}`, `{type: "redacted_thinking", data}`, `{type: "text", text}`), or, from Gemini,
 * `{index, delta: {thinking | text}}`; a stream delta's `content_blocks` holds
 * `{index, delta: {thinking | signature | data | text}}`. Text here repeats `content`, so only
 * thinking is read.
 *
 * @see https://portkey.ai/docs/product/ai-gateway/multimodal-capabilities/thinking-mode
 */
import type { Part } from "../canonical.ts";
import { asArray, asNumber, asRecord, asString } from "../json.ts";
import type { PartsAssembler } from "../reply-parts.ts";

type Thinking = Extract<Part, { type: "thinking" }>;

/** The thinking parts of a reply message's `content_blocks`, in order (none: empty). */
export function contentBlocksThinking(value: unknown): Thinking[] {
  const out: Thinking[] = [];
  const byIndex = new Map<number, Thinking>();
  for (const entry of asArray(value) ?? []) {
    const block = asRecord(entry);
    if (!block) continue;
    if (block.type === "thinking" && typeof block.thinking === "string") {
      const part: Thinking = { type: "thinking", text: block.thinking };
      const signature = asString(block.signature);
      if (signature) part.signature = signature;
      out.push(part);
    } else if (block.type === "redacted_thinking" && typeof block.data === "string") {
      out.push({ type: "thinking", text: "", signature: block.data, redacted: true });
    } else {
      const thinking = asString(asRecord(block.delta)?.thinking);
      if (thinking === undefined) continue;
      const index = asNumber(block.index) ?? -1;
      const open = byIndex.get(index);
      if (open) {
        open.text += thinking;
      } else {
        const part: Thinking = { type: "thinking", text: thinking };
        byIndex.set(index, part);
        out.push(part);
      }
    }
  }
  return out;
}

/** A stream delta's `content_blocks`: each thinking fragment added to its block's slot. */
export function contentBlocksDelta(value: unknown, parts: PartsAssembler): void {
  for (const entry of asArray(value) ?? []) {
    const block = asRecord(entry);
    const delta = asRecord(block?.delta);
    if (!block || !delta) continue;
    const key = `content_blocks:${asNumber(block.index) ?? "?"}`;
    const thinking = asString(delta.thinking);
    if (thinking !== undefined) parts.text(key, "thinking", thinking);
    const signature = asString(delta.signature);
    if (signature) parts.signature(key, signature);
    const data = asString(delta.data);
    if (data) parts.signature(key, data, true);
  }
}
