/**
 * The record of one traffic request, written straight as its JSONL line. The line is most
 * of what recording a small request costs, so it is put together from parts instead of
 * serializing a whole record object:
 *
 * - the request body's `json` is the body's own text when that text is one line: it was
 *   parsed from exactly that text (record.ts), so it reads back as the same value, and it
 *   is not serialized a second time;
 * - the reply body's JSON is cached once per reply (reply-bytes.ts), not escaped per
 *   request, and a large one is spliced in as shared bytes.
 *
 * `trafficRecord` builds the same record as an object, the plain way; the tests hold the
 * line to it.
 */
import { redactHeaderPairs, redactQuery } from "../dialects/credentials.ts";
import type { MockRecord, RawRequest, RecordReply, RequestFacts } from "./record.ts";
import type { RecordLine } from "./record-line.ts";
import type { ReplyBytes } from "./reply-bytes.ts";
import type { RouteFacts } from "./request-facts.ts";

export interface TrafficRecordInput {
  seq: number;
  receivedAt: string;
  listener: string;
  raw: RawRequest;
  route: RouteFacts;
  facts: RequestFacts | undefined;
  model: string | undefined;
  stream: boolean;
  /** The decision: status, staged, stagedId, persona, reason. */
  reply: RecordReply;
  replyHeaders: [string, string][];
  replyBytes: ReplyBytes;
}

/** The keys before `json`, in the record's order. */
function requestHead(input: TrafficRecordInput): Partial<MockRecord> {
  const { raw, facts } = input;
  const head: Partial<MockRecord> = {
    seq: input.seq,
    receivedAt: input.receivedAt,
    listener: input.listener,
    method: raw.method,
    path: raw.path,
    query: redactQuery(raw.query),
    headers: redactHeaderPairs(raw.headers),
    rawBody: facts?.rawBody ?? "",
    bodyEncoding: facts?.bodyEncoding ?? "utf8",
    bodyBytes: raw.bodyBytes,
  };
  // Assignments, not conditional spreads: a spread costs a temporary object per request.
  if (raw.bodyTruncated) head.bodyTruncated = true;
  return head;
}

/** The keys after `json` and before `reply`. `kind` is always there. */
function requestTail(input: TrafficRecordInput): Partial<MockRecord> {
  const { route } = input;
  const tail: Partial<MockRecord> = {};
  if (route.dialect) tail.dialect = route.dialect;
  tail.kind = route.kind;
  if (input.facts?.nonce) tail.nonce = input.facts.nonce;
  if (input.model !== undefined) tail.model = input.model;
  if (route.kind === "generate") tail.stream = input.stream;
  return tail;
}

/** The record as an object (what `records()` gives back after parsing the line). */
export function trafficRecord(input: TrafficRecordInput): MockRecord {
  const json = input.facts?.json;
  return {
    ...requestHead(input),
    ...(json === undefined ? {} : { json }),
    ...requestTail(input),
    reply: {
      ...input.reply,
      headers: input.replyHeaders,
      body: input.replyBytes.body,
      bodyEncoding: input.replyBytes.bodyEncoding,
    },
  } as MockRecord;
}

/** Below this a reply body is joined into the line's text; from it, spliced in as bytes. */
const SPLICE_FROM_BYTES = 2048;

/** JSON text of the parsed body: its own text when that is one line, else serialized. */
function jsonText(facts: RequestFacts, json: unknown): string {
  const text = facts.rawBody;
  const oneLine = facts.bodyEncoding === "utf8" && !text.includes("\n") && !text.includes("\r");
  return oneLine ? text : JSON.stringify(json);
}

/** The record's JSONL line, ending in `\n`. */
export function trafficRecordLine(input: TrafficRecordInput): RecordLine {
  const head = JSON.stringify(requestHead(input));
  const json = input.facts?.json;
  const tail = JSON.stringify(requestTail(input));
  const replyHead = JSON.stringify({ ...input.reply, headers: input.replyHeaders });
  const bytes = input.replyBytes;
  const before =
    `${head.slice(0, -1)}` +
    (json === undefined || !input.facts ? "" : `,"json":${jsonText(input.facts, json)}`) +
    `,${tail.slice(1, -1)},"reply":${replyHead.slice(0, -1)},"body":`;
  const after = `,"bodyEncoding":${JSON.stringify(bytes.bodyEncoding)}}}\n`;
  if (bytes.bodyJson.length >= SPLICE_FROM_BYTES) return [before, bytes.bodyJson, after];
  return before + bytes.bodyJsonText + after;
}
