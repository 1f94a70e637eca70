/**
 * The record of one traffic request, written straight as its JSONL line. The line is most
 * of what recording a small request costs, so it is put together from parts instead of
 * serializing a whole record object:
 *
 * - the reply body's JSON is cached once per reply (reply-bytes.ts), not escaped per
 *   request, and a large one is spliced in as shared bytes.
 *
 * `trafficRecord` builds the same record as an object, the plain way; the tests hold the
 * line to it.
 */

import { recordedHeaderPairs } from "../dialects/credentials.ts";
import type { WireRequest } from "../dialects/wire/messages.ts";
import { jsonStringFast } from "./json-string-fast.ts";
import { LineMemo, recordedTarget } from "./line-memo.ts";
import type { MockRecord, RawRequest, RecordDecision, RequestFacts } from "./record.ts";
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
  reply: RecordDecision;
  replyHeaders: readonly (readonly [string, string])[];
  replyBytes: ReplyBytes;
}

/** The request as the record holds it: the path with its query, all redacted. */
function recordedRequest(
  method: string,
  path: string,
  query: string,
  headers: readonly (readonly [string, string])[],
  body: { rawBody: string; bodyEncoding: "utf8" | "base64" } | undefined,
): WireRequest {
  return {
    method,
    path: recordedTarget(path, query),
    headers: recordedHeaderPairs(headers),
    body: { data: body?.rawBody ?? "", encoding: body?.bodyEncoding ?? "utf8" },
  };
}

/** The keys before `dialect`, in the record's order. */
function requestHead(
  seq: number,
  receivedAt: string,
  listener: string,
  request: WireRequest,
  raw: { bodyBytes: number; bodyTruncated: boolean },
): Partial<MockRecord> {
  const head: Partial<MockRecord> = {
    seq,
    receivedAt,
    listener,
    request,
    bodyBytes: raw.bodyBytes,
  };
  // Assignments, not conditional spreads: a spread costs a temporary object per request.
  if (raw.bodyTruncated) head.bodyTruncated = true;
  return head;
}

/** The keys after `bodyBytes` and before `reply`. `kind` is always there. */
function requestTail(
  route: Pick<RouteFacts, "dialect" | "kind">,
  nonce: string | undefined,
  model: string | undefined,
  stream: boolean,
): Partial<MockRecord> {
  const tail: Partial<MockRecord> = {};
  if (route.dialect) tail.dialect = route.dialect;
  tail.kind = route.kind;
  if (nonce) tail.nonce = nonce;
  if (model !== undefined) tail.model = model;
  if (route.kind === "generate") tail.stream = stream;
  return tail;
}

/** The record as an object (what `records()` gives back after parsing the line). */
export function trafficRecord(input: TrafficRecordInput): MockRecord {
  const { raw } = input;
  const request = recordedRequest(raw.method, raw.path, raw.query, raw.headers, input.facts);
  return {
    ...requestHead(input.seq, input.receivedAt, input.listener, request, raw),
    ...requestTail(input.route, input.facts?.nonce, input.model, input.stream),
    reply: {
      ...input.reply,
      headers: recordedHeaderPairs(input.replyHeaders),
      body: { data: input.replyBytes.body, encoding: input.replyBytes.bodyEncoding },
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
  /** Whether `rawBody` parsed as JSON (its escaping can then take a shortcut). */
  rawBodyIsJson: boolean;
  bodyEncoding: "utf8" | "base64";
  dialect: RouteFacts["dialect"];
  kind: RouteFacts["kind"];
  nonce: string | undefined;
  model: string | undefined;
  stream: boolean;
  reply: RecordDecision;
  replyHeaders: readonly (readonly [string, string])[];
  /** The reply body; a large one's JSON is spliced into the line as shared bytes. */
  replyBytes: ReplyBytes;
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
    rawBodyIsJson: facts?.json !== undefined,
    bodyEncoding: facts?.bodyEncoding ?? "utf8",
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

/**
 * The record's JSONL line, ending in `\n`, byte for byte `JSON.stringify(trafficRecord(...))`:
 * written as text around the values, each value serialized by `JSON.stringify` (numbers,
 * booleans and the fixed key names need none), without building the record's objects or
 * serializing them and cutting the braces off again. Each part comes from a memo
 * (line-memo.ts): the recorder's keeps the last line's parts and takes those still equal from
 * it; without one given, a fresh memo makes every part.
 */
export function renderTrafficLine(line: TrafficLine, memo = new LineMemo()): RecordLine {
  const m = memo.redactedAgainstNow();
  let text =
    `{"seq":${line.seq},"receivedAt":${m.receivedAt.of(line.receivedAt)}` +
    `,"listener":${m.listener.of(line.listener)}` +
    `,"request":{"method":${m.method.of(line.method)}` +
    `,"path":${m.target(line.path, line.query)}` +
    `,"headers":${m.requestHeaders.of(line.headers)}` +
    `,"body":{"data":${jsonStringFast(line.rawBody, line.rawBodyIsJson)},"encoding":${JSON.stringify(line.bodyEncoding)}}}` +
    `,"bodyBytes":${line.bodyBytes}`;
  if (line.bodyTruncated) text += `,"bodyTruncated":true`;
  if (line.dialect) text += `,"dialect":${JSON.stringify(line.dialect)}`;
  text += `,"kind":${JSON.stringify(line.kind)}`;
  if (line.nonce) text += `,"nonce":${JSON.stringify(line.nonce)}`;
  if (line.model !== undefined) text += `,"model":${m.model.of(line.model)}`;
  if (line.kind === "generate") text += `,"stream":${line.stream}`;
  // The decision's own keys in its own order, then the reply's headers and body.
  const decision = m.decision(line.reply);
  text += `,"reply":${decision.length > 2 ? `${decision.slice(0, -1)},` : "{"}`;
  const replyHeaders = line.reply.staged ? m.stagedReplyHeaders : m.ownReplyHeaders;
  text += `"headers":${replyHeaders.of(line.replyHeaders)},"body":{"data":`;
  const reply = line.replyBytes;
  const after = `,"encoding":${JSON.stringify(reply.bodyEncoding)}}}}\n`;
  // A UTF-16 unit is at most 6 bytes of JSON (`\u0000`): a body this short never needs
  // its bytes made to know it is joined as text.
  const mayBeLarge = reply.body.length * 6 + 2 >= SPLICE_FROM_BYTES;
  if (mayBeLarge && reply.bodyJson.length >= SPLICE_FROM_BYTES) {
    return [text, reply.bodyJson, after];
  }
  return text + reply.bodyJsonText + after;
}

/** The record's JSONL line, ending in `\n`. */
export function trafficRecordLine(input: TrafficRecordInput): RecordLine {
  return renderTrafficLine(trafficLine(input));
}
