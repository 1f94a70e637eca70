/**
 * OpenAI Responses errors: a non-2xx body has OpenAI's shared shape
 * (`{"error": {"message", "type", "param", "code"}}`); mid-stream there is an `error` event
 * (`{"type": "error", "code", "message", "param", "sequence_number"}`) and a failed response
 * carries `response.error` (`{"code", "message"}`).
 *
 * @see https://platform.openai.com/docs/api-reference/responses-streaming/error
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-error
 */
import type { ReplyError } from "../canonical.ts";
import { asRecord, asString } from "../json.ts";
import { dropEmpty, readOpenAiError, writeOpenAiErrorObject } from "../openai-chat/error-body.ts";

export const writeResponsesErrorObject = writeOpenAiErrorObject;

/** An error in any Responses shape: the body's `error`, an `error` event, or `response.error`. */
export function readResponsesError(body: unknown): Omit<ReplyError, "status" | "raw"> | undefined {
  const record = asRecord(body);
  if (record?.type === "error") {
    return dropEmpty({
      type: asString(record.code) ?? asString(asRecord(record.error)?.type),
      message: asString(record.message) ?? asString(asRecord(record.error)?.message),
    });
  }
  return readOpenAiError(body);
}
