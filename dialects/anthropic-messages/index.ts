/** Anthropic Messages. */

import type { DialectModule } from "../dialect-module.ts";
import { prefixInMessages } from "../first-user-text.ts";
import { anthropicModelList } from "../model-list.ts";
import { DOCS } from "../references.ts";
import { readAnthropicError, writeAnthropicErrorObject } from "./error-body.ts";
import { ANTHROPIC_FIELDS } from "./fields.ts";
import { mcpServerCredentials } from "./mcp-servers.ts";
import { ANTHROPIC_REPLY_FORMS } from "./reply-forms.ts";
import { readAnthropicReply } from "./reply-read.ts";
import { ANTHROPIC_REQUEST_ID, writeAnthropicReply } from "./reply-write.ts";
import { readAnthropicRequest } from "./request-read.ts";
import { writeAnthropicRequest } from "./request-write.ts";
import { ANTHROPIC_ROUTES } from "./routes.ts";
import { anthropicStopFromWire, anthropicStopToWire } from "./stop-reason.ts";
import { createAnthropicStreamReader } from "./stream-read.ts";
import { anthropicErrorEvent, anthropicPing, writeAnthropicEvents } from "./stream-write.ts";

/** The API version every request names. @see https://docs.anthropic.com/en/api/versioning */
export const ANTHROPIC_VERSION = "2023-06-01";

export const ANTHROPIC_MESSAGES: DialectModule = {
  name: "anthropic-messages",
  provider: "anthropic",
  see: DOCS.anthropic,
  routes: ANTHROPIC_ROUTES,
  contentTypes: { json: "application/json", stream: "text/event-stream; charset=utf-8" },
  requiredHeaders: { "anthropic-version": ANTHROPIC_VERSION },
  auth: { header: "x-api-key" },
  ownHeaderPrefix: "anthropic-",
  identifyingHeaders: ["anthropic-version"],
  // `{"type": "error", "error": {"type": "not_found_error", "message": "Not Found"}}`, as
  // clients report a wrong URL.
  notFound: {
    kind: "error",
    message: () => "Not Found",
    see: "https://github.com/ppipada/flexigpt-vscode-extension/issues/8",
  },
  requestId: ANTHROPIC_REQUEST_ID,
  fields: ANTHROPIC_FIELDS,
  replyForms: ANTHROPIC_REPLY_FORMS,
  request: {
    read: readAnthropicRequest,
    prefixFirstUserText: prefixInMessages,
    write: writeAnthropicRequest,
    valueCredentials: mcpServerCredentials,
  },
  reply: {
    read: readAnthropicReply,
    streamReader: createAnthropicStreamReader,
    readError: readAnthropicError,
    write: writeAnthropicReply,
    events: writeAnthropicEvents,
    errorEvent: anthropicErrorEvent,
    errorObject: writeAnthropicErrorObject,
    ping: anthropicPing,
    modelList: anthropicModelList,
  },
  stopRoundTrip: (upstream) => anthropicStopFromWire(anthropicStopToWire(upstream)),
  traits: {
    streamsByDefault: false,
    bodyContentType: "json",
    // message_delta carries the usage of every stream.
    streamUsage: "always",
    // `system` is a top-level field; messages are user and assistant turns only.
    systemPrompt: "top-level",
    // "text content blocks must be non-empty" (the API's 400).
    emptyText: "rejected",
    toolResultLink: {
      by: "id",
      see: "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
    },
    // tool_use.id: "pattern: ^[a-zA-Z0-9_-]+$"
    // (https://docs.anthropic.com/en/api/messages#body-messages-content-tool-use-id).
    toolCallId: /^[a-zA-Z0-9_-]+$/,
    toolOutput: "content",
    toolSchema: "json-schema",
    reasoningItems: false,
    developerRole: false,
  },
};
