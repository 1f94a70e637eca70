/**
 * The judging half of an attempt: what was sent and received, redacted, becomes the
 * exchange the lens judges (the same function `rescore` rebuilds it with), and the
 * client's response, as received, goes through the official SDK of the client dialect.
 * Plain data in, plain data out, so it runs in the sweep's thread or in its judging worker
 * (judge-thread.ts) with the same result.
 */
import { redactJson } from "../dialects/credentials.ts";
import type { ClientDialect, Dialect, Mode } from "../dialects/dialect.ts";
import { CANARY_VALUES } from "../probes/corpus/canaries.ts";
import type { Verdict } from "../probes/verdict.ts";
import { type ClientSdkRecord, compareSdkWithLens } from "./client-sdk/client-sdk-record.ts";
import { sdkView } from "./client-sdk/sdk-view.ts";
import type { ForwardedRecord, StoredClientRequest, StoredResponse } from "./exchange-from-wire.ts";
import { judgeStoredSides } from "./judge-attempt.ts";

export interface WireJudgeInput {
  client: ClientDialect;
  backend: Dialect;
  mode: Mode;
  /** The probe's field in the client dialect. */
  field: string;
  /** What is stored, redacted. */
  clientRequest: StoredClientRequest;
  forwarded: ForwardedRecord[];
  clientResponse: StoredResponse;
  /** The client's total wait (failure probes judge it). */
  totalMs: number;
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
  const { verdicts, verdict, clientReply } = judgeStoredSides(
    {
      client: input.client,
      backend: input.backend,
      mode: input.mode,
      clientRequest: input.clientRequest,
      forwarded: input.forwarded,
      clientResponse: input.clientResponse,
      timings: { totalMs: input.totalMs },
    },
    input.field,
  );
  const { received } = input;
  if (received.status <= 0) return { verdicts, verdict };
  const body = Buffer.isBuffer(received.body)
    ? received.body
    : Buffer.from(received.body.buffer, received.body.byteOffset, received.body.byteLength);
  const view = await sdkView(input.client, input.mode, { ...received, body });
  const clientSdk = redactJson(
    compareSdkWithLens(received.status, view, clientReply),
    CANARY_VALUES,
  ) as ClientSdkRecord;
  return { verdicts, verdict, clientSdk };
};
