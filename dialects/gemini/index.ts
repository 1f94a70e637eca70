/** Gemini generateContent. */
import type { DialectModule } from "../dialect-module.ts";
import { prefixFirstUserMessage } from "../first-user-text.ts";
import { geminiModelList } from "../model-list.ts";
import { DOCS } from "../references.ts";
import { readGeminiError, writeGeminiErrorObject } from "./error-body.ts";
import { GEMINI_FIELDS } from "./fields.ts";
import { readGeminiBody } from "./reply-body.ts";
import { GEMINI_REPLY_FORMS } from "./reply-forms.ts";
import { writeGeminiReply } from "./reply-write.ts";
import { readGeminiRequest } from "./request-read.ts";
import { writeGeminiRequest } from "./request-write.ts";
import { GEMINI_ROUTES } from "./routes.ts";
import { geminiStopFromWire, geminiStopToWire } from "./stop-reason.ts";
import { createGeminiStreamReader } from "./stream-read.ts";
import { geminiErrorEvent, writeGeminiEvents } from "./stream-write.ts";

export const GEMINI: DialectModule = {
  name: "gemini",
  provider: "google",
  see: DOCS.gemini,
  routes: GEMINI_ROUTES,
  contentTypes: { json: "application/json; charset=UTF-8", stream: "text/event-stream" },
  requiredHeaders: {},
  auth: { header: "x-goog-api-key" },
  ownHeaderPrefix: undefined,
  identifyingHeaders: ["x-goog-api-key"],
  // Google's RPC error with status NOT_FOUND (the error shape of every Gemini error; the
  // bytes Google's front end sends for a path no API serves are not documented).
  notFound: {
    kind: "error",
    message: (method: string, path: string) => `Invalid URL (${method} ${path})`,
    see: "https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes",
  },
  requestId: undefined,
  fields: GEMINI_FIELDS,
  replyForms: GEMINI_REPLY_FORMS,
  request: {
    read: readGeminiRequest,
    write: writeGeminiRequest,
    // `contents` turns hold `parts`, whose text parts have no type.
    prefixFirstUserText: (body, prefix) =>
      prefixFirstUserMessage(body.contents, prefix, [""], "parts"),
  },
  reply: {
    read: readGeminiBody,
    streamReader: createGeminiStreamReader,
    readError: readGeminiError,
    write: writeGeminiReply,
    events: writeGeminiEvents,
    errorEvent: geminiErrorEvent,
    errorObject: writeGeminiErrorObject,
    ping: () => ({ comment: "ping", data: "" }),
    modelList: geminiModelList,
  },
  stopRoundTrip: (upstream, hasToolCalls) =>
    geminiStopFromWire(geminiStopToWire(upstream), hasToolCalls),
  traits: {
    streamsByDefault: false,
    bodyContentType: "json",
    // Every chunk carries usageMetadata.
    streamUsage: "always",
    // systemInstruction is a top-level field; contents are user and model turns only.
    systemPrompt: "top-level",
    // A Part must hold data: an empty text part is refused.
    emptyText: "rejected",
    // functionResponse names the function it answers (its id is optional).
    // https://ai.google.dev/api/caching#FunctionResponse
    toolResultLink: {
      by: "name",
      see: "https://ai.google.dev/gemini-api/docs/function-calling",
    },
    // functionCall.id is optional, a string of no documented form.
    toolCallId: undefined,
    // functionResponse.response is a JSON object.
    toolOutput: "object",
    // FunctionDeclaration.parameters is an OpenAPI 3.0 Schema subset.
    // https://ai.google.dev/api/caching#Schema
    toolSchema: "openapi-subset",
    reasoningItems: false,
    developerRole: false,
  },
};
