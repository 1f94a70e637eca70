/**
 * Anthropic usage ↔ canonical usage. Anthropic's `input_tokens` counts only the tokens after
 * the last cache breakpoint: cache_read_input_tokens and cache_creation_input_tokens are
 * separate. The canonical `inputTokens` counts all of them (OpenAI's meaning), so the reader
 * adds them and the writer subtracts them. Anthropic reports no reasoning count (thinking is
 * inside output_tokens) and no total.
 *
 * @see https://docs.anthropic.com/en/api/messages#response-usage
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance
 */
import type { Usage } from "../canonical.ts";
import { asNumber, asRecord } from "../json.ts";

export function readAnthropicUsage(value: unknown): Usage | undefined {
  const u = asRecord(value);
  if (!u) return undefined;
  const input = asNumber(u.input_tokens);
  const cacheRead = asNumber(u.cache_read_input_tokens);
  const cacheWrite = asNumber(u.cache_creation_input_tokens);
  // Set key by key (absent stays absent), not a literal with holes dropped afterwards.
  const usage: Usage = {};
  if (input !== undefined) usage.inputTokens = input + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const output = asNumber(u.output_tokens);
  if (output !== undefined) usage.outputTokens = output;
  if (cacheRead !== undefined) usage.cacheReadTokens = cacheRead;
  if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
  return usage;
}

export function writeAnthropicUsage(usage: Usage): Record<string, unknown> {
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage.inputTokens ?? 0) - cacheRead - cacheWrite),
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    output_tokens: usage.outputTokens ?? 0,
  };
}
