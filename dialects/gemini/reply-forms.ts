/**
 * The forms Gemini answers in, chosen by the method and the `alt` system parameter, never by
 * the body: `generateContent` answers one JSON response; `streamGenerateContent` answers an
 * event stream with `alt=sse`, and without it (`alt` defaults to `json`) one JSON array of
 * responses written as they are generated (`[{...}\n,\r\n{...}\n]`, pretty-printed as
 * Google's `prettyPrint` default does). An error there comes as a JSON array of one error
 * object too, as clients that stream without `alt=sse` report it.
 */
import type { ReplyFormRow } from "../reply-forms.ts";

const GENERATE = "https://ai.google.dev/api/generate-content#method:-models.generatecontent";
const STREAM = "https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent";
/** `alt`: json (default), media, proto, sse; `prettyPrint` defaults to true. */
const SYSTEM_PARAMETERS = "https://cloud.google.com/apis/docs/system-parameters";
/** A 404 to `streamGenerateContent` without `alt=sse`: `[{"error": {...}}]`, pretty-printed. */
const ARRAY_ERROR = { form: "array", see: "https://github.com/karthink/gptel/issues/667" } as const;

export const GEMINI_REPLY_FORMS: readonly ReplyFormRow[] = [
  { variant: ":generateContent", method: "generate", form: "json", see: GENERATE },
  {
    variant: ":streamGenerateContent?alt=sse",
    method: "stream",
    query: { alt: "sse" },
    form: "sse",
    usage: "sent",
    see: STREAM,
  },
  {
    variant: ":streamGenerateContent (no alt)",
    method: "stream",
    query: { alt: null },
    form: "json-array",
    usage: "sent",
    errorBody: ARRAY_ERROR,
    see: SYSTEM_PARAMETERS,
  },
  {
    variant: ":streamGenerateContent?alt=json",
    method: "stream",
    query: { alt: "json" },
    form: "json-array",
    usage: "sent",
    errorBody: ARRAY_ERROR,
    see: SYSTEM_PARAMETERS,
  },
  // Another `alt` (media, proto) has no form the mock writes: the JSON array, alt's default.
  {
    variant: "otherwise",
    form: "json-array",
    usage: "sent",
    errorBody: ARRAY_ERROR,
    see: SYSTEM_PARAMETERS,
  },
];
