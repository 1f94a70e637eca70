/**
 * The form a provider answers a generate request in, for each request variant its reference
 * documents: a JSON body, an SSE stream, an NDJSON stream, or Gemini's JSON array (the
 * `streamGenerateContent` answer without `alt=sse`). Each dialect module holds its table
 * (`replyForms`, a row per documented variant with its reference); the mock answers from it
 * and the lens reads a stream in any form the table lists.
 *
 * A table is read in order and the first row whose conditions all hold answers. Its last row
 * has no conditions (a test holds every table to it), so every request has a form: a value
 * the reference does not describe (`stream: "yes"`) gets the form the provider's own default
 * gives it.
 */
import { isRecord } from "./json.ts";

/** The framings of a reply body. */
export type ReplyForm = "json" | "sse" | "ndjson" | "json-array";

/** A body or query condition's value: a JSON scalar, or `null` for "not given". */
export type ConditionValue = string | number | boolean | null;

export interface ReplyFormRow {
  /** The variant as the docs name it (`stream: true, stream_options.include_usage: true`). */
  readonly variant: string;
  /** The endpoint's own method, where a dialect streams through one (Gemini's
   * `streamGenerateContent`): `stream` or `generate`. */
  readonly method?: "generate" | "stream";
  /** Query parameters and the value each must have (`null`: absent). */
  readonly query?: Readonly<Record<string, ConditionValue>>;
  /** Body values by dotted path and the value each must have (`null`: absent). */
  readonly body?: Readonly<Record<string, ConditionValue>>;
  readonly form: ReplyForm;
  /** For a stream: whether its end reports usage (Chat's usage chunk only when asked). */
  readonly usage?: "sent" | "omitted";
  /** Where an error answers the variant in a JSON array of one error object (Gemini's stream
   * method without `alt=sse`), with the reference saying so; the error object otherwise. */
  readonly errorBody?: { readonly form: "array"; readonly see: string };
  /** The provider's reference saying so. */
  readonly see: string;
}

/** What a request shows the table: its endpoint method, query string and parsed body. */
export interface FormRequest {
  /** The endpoint's method where the path names one (Gemini), else undefined. */
  method?: "generate" | "stream";
  /** The query string, without its `?` ("" when there is none). */
  query: string;
  body: unknown;
}

function bodyValue(body: unknown, path: string): unknown {
  let value: unknown = body;
  for (const key of path.split(".")) {
    if (!isRecord(value)) return undefined;
    value = value[key];
  }
  return value;
}

function holds(want: ConditionValue, got: unknown): boolean {
  return want === null ? got === undefined : got === want;
}

/** Whether every condition of a row holds for the request. */
export function rowMatches(row: ReplyFormRow, request: FormRequest): boolean {
  if (row.method !== undefined && row.method !== request.method) return false;
  if (row.query) {
    const query = new URLSearchParams(request.query);
    for (const [name, want] of Object.entries(row.query)) {
      if (!holds(want, query.get(name) ?? undefined)) return false;
    }
  }
  for (const [path, want] of Object.entries(row.body ?? {})) {
    if (!holds(want, bodyValue(request.body, path))) return false;
  }
  return true;
}

/** The row that answers a request: the first that matches (the last row matches anything). */
export function replyFormRow(rows: readonly ReplyFormRow[], request: FormRequest): ReplyFormRow {
  for (const row of rows) if (rowMatches(row, request)) return row;
  const last = rows[rows.length - 1];
  if (!last) throw new Error("a reply-form table has no rows");
  return last;
}

/**
 * Whether a row is the table's fallback (no conditions): it answers a request the reference
 * does not describe, so matching it says nothing of whether the variant is documented.
 */
export function isFallbackRow(row: ReplyFormRow): boolean {
  return row.method === undefined && row.query === undefined && row.body === undefined;
}

/** Whether a form is a stream (every form but a JSON body). */
export function isStreamForm(form: ReplyForm): boolean {
  return form !== "json";
}

/**
 * What a provider answers a path it does not serve (a doubled `/v1/v1/...`): its own error
 * object with this message and type (written by the dialect's `errorObject`), or the plain
 * text its web framework sends (Ollama's gin router). The mock answers it whatever is staged.
 */
export type NotFoundReply =
  | {
      readonly kind: "error";
      /** The message for the request's method and path (the path as the mock received it). */
      readonly message: (method: string, path: string) => string;
      /** The error type, where it is not the one the dialect's table gives a 404. */
      readonly type?: string;
      readonly see: string;
    }
  | {
      readonly kind: "text";
      readonly text: string;
      readonly contentType: string;
      readonly see: string;
    };
