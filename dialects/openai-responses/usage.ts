/**
 * OpenAI Responses usage ↔ canonical usage: input_tokens includes cached tokens
 * (input_tokens_details.cached_tokens), output_tokens includes reasoning tokens
 * (output_tokens_details.reasoning_tokens): the canonical meaning already.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
 */
import type { Usage } from "../canonical.ts";
import { asNumber, asRecord } from "../json.ts";
import { dropUndefined } from "../openai-chat/usage.ts";

export function readResponsesUsage(value: unknown): Usage | undefined {
  const u = asRecord(value);
  if (!u) return undefined;
  return dropUndefined({
    inputTokens: asNumber(u.input_tokens),
    outputTokens: asNumber(u.output_tokens),
    totalTokens: asNumber(u.total_tokens),
    cacheReadTokens: asNumber(asRecord(u.input_tokens_details)?.cached_tokens),
    reasoningTokens: asNumber(asRecord(u.output_tokens_details)?.reasoning_tokens),
  });
}

export function writeResponsesUsage(usage: Usage): Record<string, unknown> {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens ?? input + output,
  };
}
