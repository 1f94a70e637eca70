/**
 * One attempt of one cell, in two steps (gateway-session.ts holds a request slot for the
 * first only): `sendAttempt` plants a fresh nonce, stages the probe's upstream reply on the
 * gateway's mock listener, calls the gateway's ingress and collects what the mock recorded
 * for the nonce; `judgeSent` redacts everything kept into the attempt's exchange
 * (attempt-exchange.ts) and judges it in that stored form, so `rescore` of stored bytes gives
 * the same verdicts.
 */

import { redactBody } from "../dialects/body-redaction.ts";
import { redactRequestTarget } from "../dialects/credential-url.ts";
import { recordedHeaderPairs, redactHeaderPairs } from "../dialects/credentials.ts";
import type { Mode } from "../dialects/dialect.ts";
import { redactedBodyBytes } from "../dialects/redacted-body-bytes.ts";
import { textBytes } from "../dialects/wire/bytes.ts";
import type { ExchangeContext, WireExchange } from "../dialects/wire/exchange.ts";
import type { WireRequest } from "../dialects/wire/messages.ts";
import type { GatewayRoute } from "../gateways/adapter.ts";
import type { MockHandle, MockRecord } from "../mock-upstream/index.ts";
import { newNonce } from "../mock-upstream/nonce.ts";
import { type BuiltRequest, buildClientRequest } from "../probes/corpus/build.ts";
import { CANARY_VALUES } from "../probes/corpus/canaries.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import type { Verdict } from "../probes/verdict.ts";
import { attemptExchange, type RedactedResponse } from "./attempt-exchange.ts";
import type { ClientSdkRecord } from "./client-sdk/client-sdk-record.ts";
import { collectRecords } from "./collect-records.ts";
import {
  type FallbackTarget,
  fallbackRequest,
  fallbackStages,
  isFallbackProbe,
} from "./fallback-targets.ts";
import { type ClientResponse, sendRequest } from "./http-client.ts";
import { judgeWire, type WireJudge } from "./judge-wire.ts";
import { backendMountOf } from "./persona-mocks.ts";
import { stagedReplyFor } from "./stage-upstream.ts";

export interface AttemptTarget {
  /** Gateway base URL (`http://127.0.0.1:PORT`). */
  baseUrl: string;
  mock: MockHandle;
  route: GatewayRoute;
  /** The key the client sends for the route's own upstream credential (not a canary). */
  apiKey: string;
  /** Model the backend is asked for; the route turns it into the client's model name. */
  backendModel: string;
  timeoutMs: number;
  /** How long to wait for the mock's record after the response (gateways may forward late). */
  settleMs?: number;
  /** The second target, for fallback probes (sweep/fallback-targets.ts). */
  fallback?: FallbackTarget;
  /** Judges the attempt (default: in this thread; judge-thread.ts judges in a worker). */
  judge?: WireJudge;
}

export interface AttemptOutcome {
  status: "ok" | "transport-error";
  timings: { firstByteMs?: number; totalMs: number; chunks: number };
  /** What was sent and received, redacted: what is stored, judged and exported. */
  exchange: WireExchange;
  /** Every verdict the lens gave; the probe's own is `verdict`. */
  verdicts: Verdict[];
  verdict: Verdict;
  /** What the official SDK of the client dialect made of the response, beside the lens. */
  clientSdk?: ClientSdkRecord;
  nonce: string;
}

export function ingressPath(route: GatewayRoute, mode: Mode): string {
  return mode === "stream" ? (route.streamIngressPath ?? route.ingressPath) : route.ingressPath;
}

function mergeHeaders(
  routeHeaders: Record<string, string>,
  probeHeaders: Record<string, string>,
): [string, string][] {
  const merged = new Map<string, [string, string]>();
  for (const [name, value] of [...Object.entries(routeHeaders), ...Object.entries(probeHeaders)]) {
    merged.set(name.toLowerCase(), [name, value]);
  }
  return [...merged.values()];
}

/** What one attempt sends: the probe (for its upstream reply), the field judged, and how
 * the client request is built for a nonce (the main leg builds the probe's own request; the
 * control leg a translation of it). */
export interface AttemptPlan {
  probe: Probe;
  field: string;
  mode: Mode;
  build(nonce: string, model: string): BuiltRequest;
  /** The route's failed preflight (ExchangeContext.routePreflight), where the cell still runs. */
  routePreflight?: string;
}

export function mainLeg(probe: Probe, mode: Mode, routePreflight?: string): AttemptPlan {
  return {
    probe,
    field: probe.field,
    mode,
    ...(routePreflight ? { routePreflight } : {}),
    build: (nonce, model) => buildClientRequest(probe, { nonce, mode, model }),
  };
}

/** What one attempt sent and got back, before it is judged. */
export interface SentAttempt {
  nonce: string;
  path: string;
  headers: [string, string][];
  body: string;
  response: ClientResponse;
  forwarded: MockRecord[];
  /** What the judge needs that the gateway never saw (a fallback's targets). */
  context?: ExchangeContext;
}

/** Plant the nonce, stage the reply, call the gateway and collect the mock's records. */
export async function sendAttempt(target: AttemptTarget, plan: AttemptPlan): Promise<SentAttempt> {
  const { route, mock } = target;
  const { probe, mode } = plan;
  const nonce = newNonce();
  const built = plan.build(nonce, route.model(target.backendModel));
  const fallback = isFallbackProbe(probe) ? target.fallback : undefined;
  const staged = fallback ? undefined : stagedReplyFor(probe, nonce, route.backend);
  if (staged) mock.stage(staged);
  const twoTargets = fallback
    ? fallbackRequest(route, fallback, mock, target.apiKey, target.backendModel)
    : undefined;
  if (fallback) {
    const stages = fallbackStages(probe, nonce, route.backend);
    mock.stage(stages.first);
    fallback.mock.stage(stages.second);
  }
  const query = built.path.includes("?") ? built.path.slice(built.path.indexOf("?")) : "";
  const path = ingressPath(route, mode) + query;
  const headers = mergeHeaders(
    twoTargets?.headers ?? route.headers({ mockUrl: () => mock.url, apiKey: target.apiKey }),
    built.headers,
  );
  const body = JSON.stringify(twoTargets ? { ...built.body, ...twoTargets.body } : built.body);
  const response = await sendRequest({
    url: target.baseUrl + path,
    headers: Object.fromEntries(headers),
    body,
    timeoutMs: target.timeoutMs,
  });
  const listeners = fallback ? [mock, fallback.mock] : [mock];
  const forwarded = await collectRecords(listeners, nonce, target.settleMs ?? 50);
  const context: ExchangeContext = { ...probe.context, ...twoTargets?.context };
  const mount = backendMountOf(route);
  if (mount) context.backendMount = mount;
  if (plan.routePreflight) context.routePreflight = plan.routePreflight;
  return { nonce, path, headers, body, response, forwarded, context };
}

/** What a client sent, redacted, in the wire vocabulary (header names lower-case). */
export function redactedClientRequest(
  sent: { path: string; headers: readonly (readonly [string, string])[]; body: string },
  secrets: readonly string[],
): WireRequest {
  return {
    method: "POST",
    path: redactRequestTarget(sent.path, secrets),
    headers: recordedHeaderPairs(sent.headers, secrets),
    body: textBytes(redactBody(sent.body, secrets)),
  };
}

/** What the client got, redacted: its status, headers, body bytes and transport error. */
export function redactedResponse(
  response: ClientResponse,
  secrets: readonly string[],
): RedactedResponse {
  return {
    status: response.status,
    headers: redactHeaderPairs(response.headers, secrets),
    body: redactedResponseBody(response, secrets),
    ...(response.transportError ? { transportError: response.transportError } : {}),
  };
}

/** The response body redacted; a compressed one through its decoded text. */
function redactedResponseBody(response: ClientResponse, secrets: readonly string[]): Buffer {
  const coding = response.headers.find(([k]) => k.toLowerCase() === "content-encoding")?.[1];
  return redactedBodyBytes(response.body, coding, secrets);
}

/** Redact what was sent and received, and judge it. */
export async function judgeSent(
  target: Pick<AttemptTarget, "route" | "judge">,
  plan: Pick<AttemptPlan, "mode" | "field">,
  sent: SentAttempt,
): Promise<AttemptOutcome> {
  const { route } = target;
  const { nonce, path, headers, body, response, forwarded } = sent;
  const { mode } = plan;
  const secrets = CANARY_VALUES;
  const totalMs = Math.round(response.timings.totalMs);
  const exchange = attemptExchange({
    client: route.client,
    backend: route.backend,
    mode,
    clientRequest: redactedClientRequest({ path, headers, body }, secrets),
    records: forwarded,
    response: redactedResponse(response, secrets),
    ...(sent.context ? { context: sent.context } : {}),
    totalMs,
  });
  const { verdicts, verdict, clientSdk } = await (target.judge ?? judgeWire)({
    exchange: { ...exchange, route: { client: route.client, backend: route.backend } },
    field: plan.field,
    received: { status: response.status, headers: response.headers, body: response.body },
  });
  return {
    status: response.transportError ? "transport-error" : "ok",
    timings: {
      ...(response.timings.firstByteMs === undefined
        ? {}
        : { firstByteMs: response.timings.firstByteMs }),
      totalMs,
      chunks: response.chunks.length,
    },
    exchange,
    verdicts,
    verdict,
    ...(clientSdk ? { clientSdk } : {}),
    nonce,
  };
}
