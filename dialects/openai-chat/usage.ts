/**
 * OpenAI Chat usage ↔ canonical usage. The canonical meaning is OpenAI's own:
 * prompt_tokens counts cached tokens too, completion_tokens counts reasoning tokens too.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage
 */
import type { Usage } from "../canonical.ts";
import { asNumber, asRecord } from "../json.ts";

export function readChatUsage(value: unknown): Usage | undefined {
  const u = asRecord(value);
  if (!u) return undefined;
  // Set key by key (absent stays absent), not a literal with holes dropped afterwards.
  const usage: Usage = {};
  const input = asNumber(u.prompt_tokens);
  if (input !== undefined) usage.inputTokens = input;
  const output = asNumber(u.completion_tokens);
  if (output !== undefined) usage.outputTokens = output;
  const total = asNumber(u.total_tokens);
  if (total !== undefined) usage.totalTokens = total;
  const cacheRead = asNumber(asRecord(u.prompt_tokens_details)?.cached_tokens);
  if (cacheRead !== undefined) usage.cacheReadTokens = cacheRead;
  const reasoning = asNumber(asRecord(u.completion_tokens_details)?.reasoning_tokens);
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

export function writeChatUsage(usage: Usage): Record<string, unknown> {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const out: Record<string, unknown> = {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: usage.totalTokens ?? input + output,
  };
  if (usage.cacheReadTokens !== undefined) {
    out.prompt_tokens_details = { cached_tokens: usage.cacheReadTokens };
  }
  if (usage.reasoningTokens !== undefined) {
    out.completion_tokens_details = { reasoning_tokens: usage.reasoningTokens };
  }
  return out;
}

/** Usage with the absent fields removed, so absent stays absent (never a default 0). */
export function dropUndefined(usage: Usage): Usage {
  const out: Usage = {};
  // for-in, not Object.entries: every streamed chunk's usage comes through here.
  for (const key in usage) {
    const value = usage[key as keyof Usage];
    if (value !== undefined) out[key as keyof Usage] = value;
  }
  return out;
}
