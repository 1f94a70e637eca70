/**
 * Ollama error bodies: always `{"error": "message"}`, a string, in a non-2xx reply and as a
 * line mid-stream.
 *
 * @see https://github.com/ollama/ollama/blob/main/docs/api.md#errors
 */
import type { ReplyError } from "../canonical.ts";
import { readOpenAiError } from "../openai-chat/error-body.ts";

export function writeOllamaErrorObject(
  _status: number,
  message: string,
  _type?: string,
): Record<string, unknown> {
  return { error: message };
}

export function readOllamaError(body: unknown): Omit<ReplyError, "status" | "raw"> | undefined {
  return readOpenAiError(body);
}
