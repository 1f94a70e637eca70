/**
 * A record-through exchange as a mock record, so `--record` holds what a record-through mock
 * forwarded as it holds what any mock answered. The request side is already redacted by the
 * capture (record-through.ts); the upstream's reply body is redacted here as a staged reply's
 * is (the capture file keeps it byte-exact for replay, the record file keeps no secret).
 */
import { isUtf8 } from "node:buffer";
import { tryParseJson } from "../../dialects/json.ts";
import { redactedBodyBytes } from "../../dialects/redacted-body-bytes.ts";
import { bytesBuffer } from "../../dialects/wire/bytes.ts";
import { headerValue, type MockRecord } from "../record.ts";
import { routeFacts, wantsStream } from "../request-facts.ts";
import type { TrafficState } from "../traffic.ts";
import { type Exchange, pathOnly } from "./exchange.ts";
import type { IncomingRequestInfo } from "./incoming.ts";

export interface ExchangeRecordContext {
  seq: number;
  listener: string;
  prefix: string;
  /** Bytes of the request body as it arrived (the capture holds the redacted body only). */
  bodyBytes: number;
}

export function exchangeRecord(exchange: Exchange, ctx: ExchangeRecordContext): MockRecord {
  const { request, reply, end } = exchange;
  const route = routeFacts(pathOnly(request), ctx.prefix, request.headers);
  const json = request.body.encoding === "utf8" ? tryParseJson(request.body.data) : undefined;
  const body = redactedBodyBytes(
    bytesBuffer(reply.body),
    headerValue(reply.headers, "content-encoding"),
  );
  const utf8 = isUtf8(body);
  const record: MockRecord = {
    seq: ctx.seq,
    receivedAt: exchange.startedAt,
    listener: ctx.listener,
    request,
    bodyBytes: ctx.bodyBytes,
    ...(route.dialect ? { dialect: route.dialect } : {}),
    kind: route.kind,
    ...(exchange.nonce ? { nonce: exchange.nonce } : {}),
    ...(exchange.model !== undefined ? { model: exchange.model } : {}),
    ...(route.kind === "generate"
      ? { stream: wantsStream(route, json?.ok ? json.value : undefined) }
      : {}),
    reply: {
      status: reply.status,
      staged: false,
      // How the exchange ended when the upstream did not finish it: the capture's end kind.
      ...(end.kind === "complete" ? {} : { reason: `record-through-${end.kind}` }),
      headers: reply.headers,
      body: { data: body.toString(utf8 ? "utf8" : "base64"), encoding: utf8 ? "utf8" : "base64" },
    },
  };
  return record;
}

/** Keep a finished exchange as the listener's next record and write its line now. */
export function recordExchange(
  state: TrafficState,
  exchange: Exchange,
  incoming: IncomingRequestInfo,
): void {
  const record = exchangeRecord(exchange, {
    seq: state.recorder.nextSeq(),
    listener: state.listener,
    prefix: state.prefix,
    bodyBytes: incoming.body.byteLength,
  });
  state.recorder.add(record);
  state.recorder.flush();
}
