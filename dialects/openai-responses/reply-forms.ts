/**
 * The forms Responses answers in: JSON unless `stream: true`, whose events always end with
 * `response.completed` carrying usage; `stream_options` (only `include_obfuscation`) changes
 * no framing.
 */
import type { ReplyFormRow } from "../reply-forms.ts";

const STREAM =
  "https://platform.openai.com/docs/api-reference/responses/create#responses-create-stream";
const STREAM_OPTIONS =
  "https://platform.openai.com/docs/api-reference/responses/create#responses-create-stream_options";

export const RESPONSES_REPLY_FORMS: readonly ReplyFormRow[] = [
  {
    variant: "stream: true, stream_options.include_obfuscation: false",
    body: { stream: true, "stream_options.include_obfuscation": false },
    form: "sse",
    usage: "sent",
    see: STREAM_OPTIONS,
  },
  { variant: "stream: true", body: { stream: true }, form: "sse", usage: "sent", see: STREAM },
  { variant: "stream: false", body: { stream: false }, form: "json", see: STREAM },
  { variant: "no stream", body: { stream: null }, form: "json", see: STREAM },
  { variant: "otherwise", form: "json", see: STREAM },
];
