/** OpenAI Responses. */

import type { DialectModule } from "../dialect-module.ts";
import { prefixFirstUserMessage } from "../first-user-text.ts";
import { openaiModelList } from "../model-list.ts";
import { OPENAI_HTTP } from "../openai-provider.ts";
import { DOCS } from "../references.ts";
import { readResponsesError, writeResponsesErrorObject } from "./error-body.ts";
import { RESPONSES_FIELDS } from "./fields.ts";
import { mcpToolCredentials } from "./mcp-tools.ts";
import { RESPONSES_REPLY_FORMS } from "./reply-forms.ts";
import { readResponsesReply } from "./reply-read.ts";
import { writeResponsesReply } from "./reply-write.ts";
import { readResponsesRequest } from "./request-read.ts";
import { writeResponsesRequest } from "./request-write.ts";
import { RESPONSES_ROUTES } from "./routes.ts";
import { responsesStopFromWire, responsesStopToWire, responsesStopWire } from "./stop-reason.ts";
import { createResponsesStreamReader } from "./stream-read.ts";
import { responsesErrorEvent, writeResponsesEvents } from "./stream-write.ts";

export const OPENAI_RESPONSES: DialectModule = {
  name: "openai-responses",
  ...OPENAI_HTTP,
  see: DOCS.responses,
  routes: RESPONSES_ROUTES,
  fields: RESPONSES_FIELDS,
  replyForms: RESPONSES_REPLY_FORMS,
  request: {
    read: readResponsesRequest,
    write: writeResponsesRequest,
    valueCredentials: mcpToolCredentials,
    // `input` is a string or a list of items; a message's text parts are input_text.
    prefixFirstUserText: (body, prefix) => {
      if (typeof body.input === "string") {
        body.input = `${prefix} ${body.input}`;
        return true;
      }
      return prefixFirstUserMessage(body.input, prefix, ["input_text", "text"]);
    },
  },
  reply: {
    read: readResponsesReply,
    streamReader: createResponsesStreamReader,
    readError: readResponsesError,
    write: (reply) => writeResponsesReply(reply),
    events: writeResponsesEvents,
    errorEvent: responsesErrorEvent,
    errorObject: writeResponsesErrorObject,
    ping: () => ({ comment: "ping", data: "" }),
    modelList: openaiModelList,
  },
  stopRoundTrip: (upstream, hasToolCalls) => {
    const wire = responsesStopToWire(upstream);
    return responsesStopFromWire(responsesStopWire(wire.status, wire.reason), hasToolCalls);
  },
  traits: {
    streamsByDefault: false,
    bodyContentType: "json",
    // response.completed carries the usage of every stream.
    streamUsage: "always",
    systemPrompt: "in-conversation",
    // A message item's text is content; an empty one says nothing and nothing requires it.
    emptyText: "optional",
    toolResultLink: {
      by: "id",
      see: "https://platform.openai.com/docs/api-reference/responses/create#responses-create-input",
    },
    // function_call.call_id is a string the provider issues, of no documented form.
    toolCallId: undefined,
    toolOutput: "content",
    toolSchema: "json-schema",
    // A reasoning item holds summary, content and encrypted_content.
    // https://platform.openai.com/docs/guides/reasoning
    reasoningItems: true,
    developerRole: true,
  },
};
