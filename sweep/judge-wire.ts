/**
 * The judging half of an attempt: what was sent and received, redacted, becomes the
 * exchange the lens judges (the same function `rescore` rebuilds it with), and the
 * client's response, as received, goes through the official SDK of the client dialect.
 * Plain data in, plain data out, so it runs in the sweep's thread or in its judging worker
 * (judge-thread.ts) with the same result.
 */
import { redactJson } from "../dialects/credentials.ts";
import type { ClientDialect } from "../dialects/dialect.ts";
import type { WireExchange } from "../dialects/wire/exchange.ts";
import { CANARY_VALUES } from "../probes/corpus/canaries.ts";
import type { Verdict } from "../probes/verdict.ts";
import { type ClientSdkRecord, compareSdkWithLens } from "./client-sdk/client-sdk-record.ts";
import { sdkView } from "./client-sdk/sdk-view.ts";
import { judgeStoredExchange } from "./judge-attempt.ts";

export interface WireJudgeInput {
  /** The attempt as it is stored: redacted (attempt-exchange.ts). */
  exchange: WireExchange & { route: { client: ClientDialect } };
  /** The probe's field in the client dialect. */
  field: string;
  /**
   * The response as the client received it, unredacted, for the SDK: it must parse what a
   * user's code parses. (A Buffer arrives in a worker as a plain Uint8Array.)
   */
  received: { status: number; headers: [string, string][]; body: Uint8Array };
}

export interface WireJudgement {
  /** Every verdict the lens gave; the probe's own is `verdict`. */
  verdicts: Verdict[];
  verdict: Verdict;
  /** What the official SDK of the client dialect made of the response, beside the lens. */
  clientSdk?: ClientSdkRecord;
}

export type WireJudge = (input: WireJudgeInput) => Promise<WireJudgement>;

export const judgeWire: WireJudge = async (input) => {
  const { exchange } = input;
  const { verdicts, verdict, clientReply } = judgeStoredExchange(exchange, input.field);
  const { received } = input;
  if (received.status <= 0) return { verdicts, verdict };
  const body = Buffer.isBuffer(received.body)
    ? received.body
    : Buffer.from(received.body.buffer, received.body.byteOffset, received.body.byteLength);
  const view = await sdkView(exchange.route.client, exchange.mode, { ...received, body });
  const clientSdk = redactJson(
    compareSdkWithLens(received.status, view, clientReply),
    CANARY_VALUES,
  ) as ClientSdkRecord;
  return { verdicts, verdict, clientSdk };
};
