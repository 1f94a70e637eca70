/**
 * What OpenAI's HTTP API is for both of its dialects (Chat Completions and Responses): one
 * provider, one content type pair, one key header, one request id, one answer to a URL it does not serve.
 */
import type { DialectModule } from "./dialect-module.ts";

/**
 * The header OpenAI puts on every reply (Chat, Responses, errors alike): `req_` and 32 hex.
 * @see https://platform.openai.com/docs/api-reference/debugging-requests
 */
const OPENAI_REQUEST_ID = {
  header: "x-request-id",
  format: (hex32: string): string => `req_${hex32}`,
} as const;

export const OPENAI_HTTP = {
  provider: "openai",
  contentTypes: { json: "application/json", stream: "text/event-stream; charset=utf-8" },
  requiredHeaders: {},
  auth: { header: "authorization", scheme: "Bearer" },
  ownHeaderPrefix: "openai-",
  identifyingHeaders: [],
  // A URL OpenAI does not serve: `{"error": {"message": "Invalid URL (POST /v1/v1/chat/completions)",
  // "type": "invalid_request_error", "param": null, "code": null}}`, as clients report it.
  notFound: {
    kind: "error",
    message: (method: string, path: string) => `Invalid URL (${method} ${path})`,
    type: "invalid_request_error",
    see: "https://github.com/harry0703/MoneyPrinterTurbo/issues/57",
  },
  requestId: OPENAI_REQUEST_ID,
} as const satisfies Pick<
  DialectModule,
  | "provider"
  | "contentTypes"
  | "requiredHeaders"
  | "auth"
  | "ownHeaderPrefix"
  | "identifyingHeaders"
  | "notFound"
  | "requestId"
>;
