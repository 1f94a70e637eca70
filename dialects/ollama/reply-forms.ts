/**
 * The forms /api/chat answers in: a stream of JSON objects, one a line, unless `stream:
 * false`; `stream` absent streams. The last object (`done: true`) always carries the counts.
 */
import type { ReplyFormRow } from "../reply-forms.ts";

const CHAT = "https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion";
const STREAMING = "https://github.com/ollama/ollama/blob/main/docs/api.md#streaming-responses";

export const OLLAMA_REPLY_FORMS: readonly ReplyFormRow[] = [
  { variant: "stream: false", body: { stream: false }, form: "json", see: CHAT },
  { variant: "stream: true", body: { stream: true }, form: "ndjson", usage: "sent", see: CHAT },
  { variant: "no stream", body: { stream: null }, form: "ndjson", usage: "sent", see: STREAMING },
  // Ollama streams unless told `false`.
  { variant: "otherwise", form: "ndjson", usage: "sent", see: STREAMING },
];
