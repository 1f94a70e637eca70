/**
 * Request readers and writers of the five dialects behind one entry point.
 * readRequest: wire JSON -> CanonicalRequest, total over any JSON object.
 * writeRequest: CanonicalRequest -> wire JSON body (the "perfect translation" of the corpus).
 */
import { readAnthropicRequest } from "./anthropic-messages/request-read.ts";
import { writeAnthropicRequest } from "./anthropic-messages/request-write.ts";
import type { CanonicalRequest } from "./canonical.ts";
import { type Dialect, isDialect } from "./dialect.ts";
import { DialectError } from "./dialect-error.ts";
import { readGeminiRequest } from "./gemini/request-read.ts";
import { writeGeminiRequest } from "./gemini/request-write.ts";
import { isRecord, type JsonRecord } from "./json.ts";
import { readOllamaRequest } from "./ollama/request-read.ts";
import { writeOllamaRequest } from "./ollama/request-write.ts";
import { readChatRequest } from "./openai-chat/request-read.ts";
import { writeChatRequest } from "./openai-chat/request-write.ts";
import { readResponsesRequest } from "./openai-responses/request-read.ts";
import { writeResponsesRequest } from "./openai-responses/request-write.ts";
import { mergeExtras } from "./request-fields.ts";
import { DIALECT_ROUTES } from "./routes.ts";

export interface RequestContext {
  /** The request path; Gemini carries the model and the stream choice in it. */
  path?: string;
}

type Reader = (body: JsonRecord, context: RequestContext) => CanonicalRequest;
/** `same` is true when the request was read from this dialect: only then are extras written back. */
type Writer = (request: CanonicalRequest, same: boolean) => JsonRecord;

const READERS = {
  "openai-chat": readChatRequest,
  "openai-responses": readResponsesRequest,
  "anthropic-messages": readAnthropicRequest,
  gemini: readGeminiRequest,
  ollama: readOllamaRequest,
} as const satisfies Record<Dialect, Reader>;

const WRITERS = {
  "openai-chat": writeChatRequest,
  "openai-responses": writeResponsesRequest,
  "anthropic-messages": writeAnthropicRequest,
  gemini: writeGeminiRequest,
  ollama: writeOllamaRequest,
} as const satisfies Record<Dialect, Writer>;

function checkDialect(dialect: unknown): asserts dialect is Dialect {
  if (!isDialect(dialect)) {
    throw new DialectError("unknown-dialect", `unknown dialect ${JSON.stringify(dialect)}`);
  }
}

/**
 * Reads a request body of `dialect` into the canonical model. Throws DialectError
 * `not-an-object` when the body is not a JSON object; any other shape is kept raw.
 */
export function readRequest(
  dialect: Dialect,
  body: unknown,
  context: RequestContext = {},
): CanonicalRequest {
  checkDialect(dialect);
  if (!isRecord(body)) {
    const what = body === null ? "null" : Array.isArray(body) ? "an array" : typeof body;
    throw new DialectError(
      "not-an-object",
      `${dialect} request body must be a JSON object, got ${what}`,
    );
  }
  return READERS[dialect](body, context);
}

/**
 * Writes a canonical request as a `dialect` JSON body. Extras (keys the reader did not map)
 * are written back only when the request was read from the same dialect.
 */
export function writeRequest(dialect: Dialect, request: CanonicalRequest): JsonRecord {
  checkDialect(dialect);
  const same = request.dialect === dialect;
  const body = WRITERS[dialect](request, same);
  return same ? mergeExtras(body, request.extras) : body;
}

/** The path a written request is sent to (Gemini puts the model and streaming in it). */
export function requestPath(dialect: Dialect, request: CanonicalRequest): string {
  checkDialect(dialect);
  const routes = DIALECT_ROUTES[dialect];
  const model = encodeURIComponent(request.model ?? "");
  return request.stream ? routes.generateStream(model) : routes.generate(model);
}
