/**
 * OpenAI error bodies (Chat Completions and Responses share them):
 * `{"error": {"message", "type", "param", "code"}}`.
 *
 * @see https://platform.openai.com/docs/guides/error-codes
 * @see https://github.com/openai/openai-python/blob/main/src/openai/_exceptions.py
 */
import type { ReplyError } from "../canonical.ts";
import { asRecord, asString } from "../json.ts";

/** The `type` OpenAI sends for a status when the caller names none, with its `code`. */
export const OPENAI_ERROR_TYPES = {
  400: { type: "invalid_request_error", code: null },
  401: { type: "invalid_request_error", code: "invalid_api_key" },
  403: { type: "permission_error", code: null },
  404: { type: "invalid_request_error", code: "model_not_found" },
  429: { type: "rate_limit_error", code: "rate_limit_exceeded" },
  500: { type: "server_error", code: null },
  503: { type: "server_error", code: null },
} as const satisfies Record<number, { type: string; code: string | null }>;

export function writeOpenAiErrorObject(
  status: number,
  message: string,
  type?: string,
): Record<string, unknown> {
  const known = (OPENAI_ERROR_TYPES as Record<number, { type: string; code: string | null }>)[
    status
  ];
  return {
    error: {
      message,
      type: type ?? known?.type ?? (status >= 500 ? "server_error" : "invalid_request_error"),
      param: null,
      code: type === undefined ? (known?.code ?? null) : null,
    },
  };
}

/** The error in an OpenAI-shaped body: `error` as an object, or as a bare string. */
export function readOpenAiError(body: unknown): Omit<ReplyError, "status" | "raw"> | undefined {
  const record = asRecord(body);
  if (!record || !("error" in record) || record.error === null) return undefined;
  const message = asString(record.error);
  if (message !== undefined) return { message };
  const error = asRecord(record.error);
  if (!error) return { message: JSON.stringify(record.error) };
  return dropEmpty({
    type: asString(error.type) ?? asString(error.code),
    message: asString(error.message),
  });
}

export function dropEmpty<T extends object>(value: T): T {
  const out = {} as T;
  for (const [k, v] of Object.entries(value))
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
