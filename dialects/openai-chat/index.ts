/** OpenAI Chat Completions. */
import type { DialectModule } from "../dialect-module.ts";
import { prefixInMessages } from "../first-user-text.ts";
import { openaiModelList } from "../model-list.ts";
import { OPENAI_HTTP } from "../openai-provider.ts";
import { DOCS } from "../references.ts";
import { readOpenAiError, writeOpenAiErrorObject } from "./error-body.ts";
import { CHAT_FIELDS } from "./fields.ts";
import { CHAT_REPLY_FORMS } from "./reply-forms.ts";
import { readChatReply } from "./reply-read.ts";
import { writeChatReply } from "./reply-write.ts";
import { readChatRequest } from "./request-read.ts";
import { writeChatRequest } from "./request-write.ts";
import { CHAT_ROUTES } from "./routes.ts";
import { chatStopFromWire, chatStopToWire } from "./stop-reason.ts";
import { createChatStreamReader } from "./stream-read.ts";
import { chatErrorEvent, writeChatEvents } from "./stream-write.ts";

export const OPENAI_CHAT: DialectModule = {
  name: "openai-chat",
  ...OPENAI_HTTP,
  see: DOCS.chat,
  routes: CHAT_ROUTES,
  fields: CHAT_FIELDS,
  replyForms: CHAT_REPLY_FORMS,
  request: {
    read: readChatRequest,
    prefixFirstUserText: prefixInMessages,
    write: writeChatRequest,
  },
  reply: {
    read: readChatReply,
    streamReader: createChatStreamReader,
    readError: readOpenAiError,
    write: writeChatReply,
    events: writeChatEvents,
    errorEvent: chatErrorEvent,
    errorObject: writeOpenAiErrorObject,
    ping: () => ({ comment: "ping", data: "" }),
    modelList: openaiModelList,
  },
  stopRoundTrip: (upstream) => chatStopFromWire(chatStopToWire(upstream)),
  traits: {
    streamsByDefault: false,
    bodyContentType: "json",
    // The usage chunk comes only with stream_options.include_usage.
    // https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream_options
    streamUsage: "when-asked",
    systemPrompt: "in-conversation",
    // An assistant's `content` is "Required unless tool_calls or function_call is specified":
    // beside tool calls it may be absent or null, so `""` there is written, not needed.
    // https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages
    emptyText: "optional",
    toolResultLink: {
      by: "id",
      see: "https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages",
    },
    // tool_calls[].id is a string the provider issues, of no documented form.
    toolCallId: undefined,
    toolOutput: "content",
    toolSchema: "json-schema",
    reasoningItems: false,
    // The developer role is its own tier of OpenAI's instruction hierarchy.
    // https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages
    developerRole: true,
  },
};
