/**
 * Gemini error bodies, Google's API error shape: `{"error": {"code", "message", "status"}}`.
 *
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 * @see https://cloud.google.com/apis/design/errors#http_mapping
 */
import type { ReplyError } from "../canonical.ts";
import { asRecord, asString } from "../json.ts";
import { dropEmpty, readOpenAiError } from "../openai-chat/error-body.ts";

/** The canonical google.rpc status name for each HTTP status. */
export const GEMINI_ERROR_STATUSES = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  409: "ABORTED",
  429: "RESOURCE_EXHAUSTED",
  499: "CANCELLED",
  500: "INTERNAL",
  501: "NOT_IMPLEMENTED",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
} as const satisfies Record<number, string>;

export function writeGeminiErrorObject(
  status: number,
  message: string,
  type?: string,
): Record<string, unknown> {
  const known = (GEMINI_ERROR_STATUSES as Record<number, string>)[status];
  return { error: { code: status, message, status: type ?? known ?? "UNKNOWN" } };
}

export function readGeminiError(body: unknown): Omit<ReplyError, "status" | "raw"> | undefined {
  // The SSE endpoint of some proxies wraps the error in a one-element array.
  const record = asRecord(Array.isArray(body) ? body[0] : body);
  const error = asRecord(record?.error);
  if (error && (asString(error.status) !== undefined || typeof error.code === "number")) {
    return dropEmpty({ type: asString(error.status), message: asString(error.message) });
  }
  return readOpenAiError(record);
}
