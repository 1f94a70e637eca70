/**
 * The forms Chat Completions answers in: JSON unless `stream: true`; a stream's usage chunk
 * (`choices: []`) only when `stream_options.include_usage` asks for it.
 */
import type { ReplyFormRow } from "../reply-forms.ts";

const STREAM = "https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream";
const STREAM_OPTIONS =
  "https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream_options";

export const CHAT_REPLY_FORMS: readonly ReplyFormRow[] = [
  {
    variant: "stream: true, stream_options.include_usage: true",
    body: { stream: true, "stream_options.include_usage": true },
    form: "sse",
    usage: "sent",
    see: STREAM_OPTIONS,
  },
  {
    variant: "stream: true (no include_usage)",
    body: { stream: true },
    form: "sse",
    usage: "omitted",
    see: STREAM_OPTIONS,
  },
  { variant: "stream: false", body: { stream: false }, form: "json", see: STREAM },
  { variant: "no stream", body: { stream: null }, form: "json", see: STREAM },
  // `stream` defaults to false: any other value is not a request to stream.
  { variant: "otherwise", form: "json", see: STREAM },
];
