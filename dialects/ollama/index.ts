/** Ollama /api/chat. */
import type { DialectModule } from "../dialect-module.ts";
import { prefixInMessages } from "../first-user-text.ts";
import { ollamaModelList } from "../model-list.ts";
import { DOCS } from "../references.ts";
import { readOllamaError, writeOllamaErrorObject } from "./error-body.ts";
import { OLLAMA_FIELDS } from "./fields.ts";
import { OLLAMA_REPLY_FORMS } from "./reply-forms.ts";
import { readOllamaReply } from "./reply-read.ts";
import { writeOllamaReply } from "./reply-write.ts";
import { readOllamaRequest } from "./request-read.ts";
import { writeOllamaRequest } from "./request-write.ts";
import { OLLAMA_ROUTES } from "./routes.ts";
import { ollamaStopFromWire, ollamaStopToWire } from "./stop-reason.ts";
import { createOllamaStreamReader } from "./stream-read.ts";
import { ollamaErrorEvent, writeOllamaEvents } from "./stream-write.ts";

export const OLLAMA: DialectModule = {
  name: "ollama",
  provider: "ollama",
  see: DOCS.ollama,
  routes: OLLAMA_ROUTES,
  contentTypes: { json: "application/json; charset=utf-8", stream: "application/x-ndjson" },
  requiredHeaders: {},
  auth: { header: "authorization", scheme: "Bearer" },
  ownHeaderPrefix: undefined,
  identifyingHeaders: [],
  // Ollama's gin router answers a route it does not have with its default plain-text page.
  notFound: {
    kind: "text",
    text: "404 page not found",
    contentType: "text/plain",
    see: "https://github.com/ollama/ollama/issues/1467",
  },
  requestId: undefined,
  fields: OLLAMA_FIELDS,
  replyForms: OLLAMA_REPLY_FORMS,
  request: {
    read: readOllamaRequest,
    prefixFirstUserText: prefixInMessages,
    write: writeOllamaRequest,
  },
  reply: {
    read: readOllamaReply,
    streamReader: createOllamaStreamReader,
    readError: readOllamaError,
    write: writeOllamaReply,
    events: writeOllamaEvents,
    errorEvent: ollamaErrorEvent,
    errorObject: writeOllamaErrorObject,
    ping: () => ({ comment: "ping", data: "" }),
    modelList: ollamaModelList,
  },
  stopRoundTrip: (upstream, hasToolCalls) =>
    ollamaStopFromWire(ollamaStopToWire(upstream), hasToolCalls),
  traits: {
    // "stream: if false the response will be returned as a single response object"; it
    // streams by default. https://github.com/ollama/ollama/blob/main/docs/api.md#parameters-1
    streamsByDefault: true,
    // The chat handler binds the body as JSON whatever the content type says (gin's
    // ShouldBindJSON). https://github.com/ollama/ollama/blob/main/server/routes.go
    bodyContentType: "any",
    // The final done:true line carries the counts.
    streamUsage: "always",
    systemPrompt: "in-conversation",
    // A message has `content` (not marked optional, unlike images and tool_calls): a message
    // with no text is `content: ""`.
    // https://github.com/ollama/ollama/blob/main/docs/api.md#chat-request-with-history
    emptyText: "spelling",
    // A tool message names the function it answers in `tool_name`; the reference gives a tool
    // call no id, so the name (in call order) is the only link.
    toolResultLink: { by: "name", see: DOCS.ollamaTools },
    // Any id a gateway sends (`tool_calls[].id`) is a string of no documented form.
    toolCallId: undefined,
    toolOutput: "content",
    toolSchema: "json-schema",
    reasoningItems: false,
    developerRole: false,
  },
};
