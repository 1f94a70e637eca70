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
import { redactHeaderPairs, redactPath, redactQuery } from "../dialects/credentials.ts";
import { stringifyDeep } from "../dialects/deep-json.ts";
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
  replyHeaders: readonly (readonly [string, string])[];
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
    path: redactPath(raw.path),
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
export const SPLICE_FROM_BYTES = 2048;

/**
 * Everything a traffic record's line is made of, and nothing more: flat, so the record
 * can be handed to the recorder thread (record-message.ts) and rendered there.
 */
export interface TrafficLine {
  seq: number;
  receivedAt: string;
  listener: string;
  method: string;
  /** Not yet redacted: the line redacts it. */
  path: string;
  /** Not yet redacted: the line redacts it. */
  query: string;
  /** Not yet redacted: the line redacts the credential values. */
  headers: readonly (readonly [string, string])[];
  bodyBytes: number;
  bodyTruncated: boolean;
  /** The redacted body (base64 when not UTF-8); "" past the body limit. */
  rawBody: string;
  bodyEncoding: "utf8" | "base64";
  /** The `json` value's text, when the body parsed (recordJsonText). */
  jsonText: string | undefined;
  dialect: RouteFacts["dialect"];
  kind: RouteFacts["kind"];
  nonce: string | undefined;
  model: string | undefined;
  stream: boolean;
  reply: RecordReply;
  replyHeaders: readonly (readonly [string, string])[];
  /** The reply body; a large one's JSON is spliced into the line as shared bytes. */
  replyBytes: ReplyBytes;
}

/**
 * The text that stands for `json` in the line: the body's own text (it was parsed from
 * exactly that text, so it reads back as the same value, and it is not serialized a second
 * time), its line breaks made spaces so the record stays one line.
 */
export function recordJsonText(facts: RequestFacts | undefined): string | undefined {
  if (!facts || facts.json === undefined) return undefined;
  const text = facts.rawBody;
  if (facts.bodyEncoding !== "utf8") return stringifyDeep(facts.json);
  // A line break in valid JSON text is whitespace between tokens (inside a string it must be
  // escaped), so a space in its place reads back as the same value: no second serialization,
  // and no recursion on a body nested thousands deep.
  return text.includes("\n") || text.includes("\r") ? text.replace(/[\r\n]/g, " ") : text;
}

export function trafficLine(input: TrafficRecordInput): TrafficLine {
  const { raw, facts, route, replyBytes: bytes } = input;
  return {
    seq: input.seq,
    receivedAt: input.receivedAt,
    listener: input.listener,
    method: raw.method,
    path: raw.path,
    query: raw.query,
    headers: raw.headers,
    bodyBytes: raw.bodyBytes,
    bodyTruncated: raw.bodyTruncated,
    rawBody: facts?.rawBody ?? "",
    bodyEncoding: facts?.bodyEncoding ?? "utf8",
    jsonText: recordJsonText(facts),
    dialect: route.dialect,
    kind: route.kind,
    nonce: facts?.nonce,
    model: input.model,
    stream: input.stream,
    reply: input.reply,
    replyHeaders: input.replyHeaders,
    replyBytes: bytes,
  };
}

/** The keys before `json`, in the record's order, redacted. */
function lineHead(line: TrafficLine): Partial<MockRecord> {
  const head: Partial<MockRecord> = {
    seq: line.seq,
    receivedAt: line.receivedAt,
    listener: line.listener,
    method: line.method,
    path: redactPath(line.path),
    query: redactQuery(line.query),
    headers: redactHeaderPairs(line.headers),
    rawBody: line.rawBody,
    bodyEncoding: line.bodyEncoding,
    bodyBytes: line.bodyBytes,
  };
  if (line.bodyTruncated) head.bodyTruncated = true;
  return head;
}

/** The keys after `json` and before `reply`. `kind` is always there. */
function lineTail(line: TrafficLine): Partial<MockRecord> {
  const tail: Partial<MockRecord> = {};
  if (line.dialect) tail.dialect = line.dialect;
  tail.kind = line.kind;
  if (line.nonce) tail.nonce = line.nonce;
  if (line.model !== undefined) tail.model = line.model;
  if (line.kind === "generate") tail.stream = line.stream;
  return tail;
}

/** The record's JSONL line, ending in `\n`, byte for byte `JSON.stringify(trafficRecord(...))`. */
export function renderTrafficLine(line: TrafficLine): RecordLine {
  const head = JSON.stringify(lineHead(line));
  const tail = JSON.stringify(lineTail(line));
  const replyHead = JSON.stringify({ ...line.reply, headers: line.replyHeaders });
  const before =
    `${head.slice(0, -1)}` +
    (line.jsonText === undefined ? "" : `,"json":${line.jsonText}`) +
    `,${tail.slice(1, -1)},"reply":${replyHead.slice(0, -1)},"body":`;
  const reply = line.replyBytes;
  const after = `,"bodyEncoding":${JSON.stringify(reply.bodyEncoding)}}}\n`;
  // A UTF-16 unit is at most 6 bytes of JSON (`\u0000`): a body this short never needs
  // its bytes made to know it is joined as text.
  const mayBeLarge = reply.body.length * 6 + 2 >= SPLICE_FROM_BYTES;
  if (mayBeLarge && reply.bodyJson.length >= SPLICE_FROM_BYTES) {
    return [before, reply.bodyJson, after];
  }
  return before + reply.bodyJsonText + after;
}

/** The record's JSONL line, ending in `\n`. */
export function trafficRecordLine(input: TrafficRecordInput): RecordLine {
  return renderTrafficLine(trafficLine(input));
}
