/**
 * Gemini usageMetadata ↔ canonical usage. promptTokenCount includes the cached tokens
 * (cachedContentTokenCount), as the canonical inputTokens does. candidatesTokenCount does NOT
 * include thinking (thoughtsTokenCount is separate and totalTokenCount adds both), while the
 * canonical outputTokens does (OpenAI's completion_tokens meaning): the reader adds
 * thoughtsTokenCount, the writer subtracts it.
 *
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 */
import type { Usage } from "../canonical.ts";
import { asNumber, asRecord } from "../json.ts";
import { dropUndefined } from "../openai-chat/usage.ts";

export function readGeminiUsage(value: unknown): Usage | undefined {
  const u = asRecord(value);
  if (!u) return undefined;
  const candidates = asNumber(u.candidatesTokenCount);
  const thoughts = asNumber(u.thoughtsTokenCount);
  return dropUndefined({
    inputTokens: asNumber(u.promptTokenCount),
    outputTokens:
      candidates === undefined && thoughts === undefined
        ? undefined
        : (candidates ?? 0) + (thoughts ?? 0),
    totalTokens: asNumber(u.totalTokenCount),
    cacheReadTokens: asNumber(u.cachedContentTokenCount),
    reasoningTokens: thoughts,
  });
}

export function writeGeminiUsage(usage: Usage): Record<string, unknown> {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const thoughts = usage.reasoningTokens;
  const out: Record<string, unknown> = {
    promptTokenCount: input,
    candidatesTokenCount: Math.max(0, output - (thoughts ?? 0)),
    totalTokenCount: usage.totalTokens ?? input + output,
  };
  if (usage.cacheReadTokens !== undefined) out.cachedContentTokenCount = usage.cacheReadTokens;
  if (thoughts !== undefined) out.thoughtsTokenCount = thoughts;
  return out;
}
