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

export function readGeminiUsage(value: unknown): Usage | undefined {
  const u = asRecord(value);
  if (!u) return undefined;
  const candidates = asNumber(u.candidatesTokenCount);
  const thoughts = asNumber(u.thoughtsTokenCount);
  // Set key by key (absent stays absent), not a literal with holes dropped afterwards.
  const usage: Usage = {};
  const input = asNumber(u.promptTokenCount);
  if (input !== undefined) usage.inputTokens = input;
  if (candidates !== undefined || thoughts !== undefined)
    usage.outputTokens = (candidates ?? 0) + (thoughts ?? 0);
  const total = asNumber(u.totalTokenCount);
  if (total !== undefined) usage.totalTokens = total;
  const cacheRead = asNumber(u.cachedContentTokenCount);
  if (cacheRead !== undefined) usage.cacheReadTokens = cacheRead;
  if (thoughts !== undefined) usage.reasoningTokens = thoughts;
  return usage;
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
