/**
 * The forms Messages answers in: an event stream for `stream: true`, a JSON message for
 * anything else, `stream` absent included; `message_delta` always carries usage.
 */
import type { ReplyFormRow } from "../reply-forms.ts";

const STREAM = "https://docs.anthropic.com/en/api/messages#body-stream";
const STREAMING = "https://docs.anthropic.com/en/docs/build-with-claude/streaming";

export const ANTHROPIC_REPLY_FORMS: readonly ReplyFormRow[] = [
  { variant: "stream: true", body: { stream: true }, form: "sse", usage: "sent", see: STREAMING },
  { variant: "stream: false", body: { stream: false }, form: "json", see: STREAM },
  { variant: "no stream", body: { stream: null }, form: "json", see: STREAM },
  { variant: "otherwise", form: "json", see: STREAM },
];
