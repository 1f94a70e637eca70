/**
 * Anthropic error bodies: `{"type": "error", "error": {"type", "message"}}`, in a non-2xx
 * reply or as an `event: error` mid-stream.
 *
 * @see https://docs.anthropic.com/en/api/errors
 */
import type { ReplyError } from "../canonical.ts";
import { asRecord, asString } from "../json.ts";
import { dropEmpty, readOpenAiError } from "../openai-chat/error-body.ts";

/** The error `type` Anthropic documents for each HTTP status. */
export const ANTHROPIC_ERROR_TYPES = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  504: "timeout_error",
  529: "overloaded_error",
} as const satisfies Record<number, string>;

export function writeAnthropicErrorObject(
  status: number,
  message: string,
  type?: string,
): Record<string, unknown> {
  const known = (ANTHROPIC_ERROR_TYPES as Record<number, string>)[status];
  return {
    type: "error",
    error: {
      type: type ?? known ?? (status >= 500 ? "api_error" : "invalid_request_error"),
      message,
    },
  };
}

export function readAnthropicError(body: unknown): Omit<ReplyError, "status" | "raw"> | undefined {
  const record = asRecord(body);
  const error = asRecord(record?.error);
  if (record?.type === "error" && error) {
    return dropEmpty({ type: asString(error.type), message: asString(error.message) });
  }
  // Gateways in front of Anthropic often answer in OpenAI's shape; read that too.
  return readOpenAiError(body);
}
