/**
 * Ollama counts ↔ canonical usage: prompt_eval_count is the prompt tokens evaluated,
 * eval_count the tokens generated (thinking included). Ollama reports no cache, reasoning
 * or total counts.
 *
 * @see https://github.com/ollama/ollama/blob/main/docs/api.md#response-10
 */
import type { Usage } from "../canonical.ts";
import { asNumber, asRecord } from "../json.ts";
import { dropUndefined } from "../openai-chat/usage.ts";

export function readOllamaUsage(value: unknown): Usage | undefined {
  const u = asRecord(value);
  if (!u || (!("prompt_eval_count" in u) && !("eval_count" in u))) return undefined;
  return dropUndefined({
    inputTokens: asNumber(u.prompt_eval_count),
    outputTokens: asNumber(u.eval_count),
  });
}

export function writeOllamaUsage(usage: Usage): Record<string, unknown> {
  return {
    prompt_eval_count: usage.inputTokens ?? 0,
    eval_count: usage.outputTokens ?? 0,
  };
}
