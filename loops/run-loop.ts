/**
 * One agent loop through one gateway route: stage the backend's two answers for a fresh
 * nonce on the route's mock listener, let the route's agent (an official SDK client) run the
 * task, collect what reached the backend, redact everything kept, and judge the chain.
 */
import type { ClientDialect } from "../dialects/dialect.ts";
import { dialectModule } from "../dialects/registry.ts";
import type { WireExchange } from "../dialects/wire/exchange.ts";
import type { WireRequest } from "../dialects/wire/messages.ts";
import type { GatewayRoute } from "../gateways/adapter.ts";
import type { MockHandle, MockRecord } from "../mock-upstream/index.ts";
import { newNonce } from "../mock-upstream/nonce.ts";
import { CANARY_VALUES } from "../probes/corpus/canaries.ts";
import { ingressPath, redactedClientRequest, redactedResponse } from "../sweep/attempt.ts";
import { clientAnswer } from "../sweep/attempt-exchange.ts";
import { collectRecords } from "../sweep/collect-records.ts";
import { AGENTS } from "./agent.ts";
import { judgeLoop } from "./judge-loop.ts";
import type { LoopOutcome } from "./loop-outcome.ts";
import { finalReply, type LoopVariant, loopTask, turnOneReply } from "./loop-script.ts";
import { type ClientExchange, recordingFetch } from "./recording-fetch.ts";

export interface LoopTarget {
  /** Gateway base URL (`http://127.0.0.1:PORT`). */
  baseUrl: string;
  route: GatewayRoute;
  /** The listener this route's backend requests reach (a persona's, or the column's). */
  mock: MockHandle;
  apiKey: string;
  backendModel: string;
  timeoutMs: number;
}

/**
 * One client request of the loop and what it got, redacted as a cell's attempt is: an
 * exchange's client side in the wire vocabulary (the response, or why there was none).
 */
export interface LoopClientTurn extends Pick<WireExchange, "clientResponse" | "clientError"> {
  clientRequest: WireRequest;
  totalMs: number;
}

export interface LoopRun {
  variant: LoopVariant["id"];
  nonce: string;
  outcome: LoopOutcome;
  /** The agent's requests and what it got back, in order (1: the task, 2: the echo). */
  turns: LoopClientTurn[];
  /** What reached the backend (the mock's records), in arrival order. */
  forwarded: MockRecord[];
  totalMs: number;
}

function storedTurn(exchange: ClientExchange): LoopClientTurn {
  const secrets = CANARY_VALUES;
  const { response } = exchange;
  return {
    clientRequest: redactedClientRequest(exchange, secrets),
    ...clientAnswer(redactedResponse(response, secrets)),
    totalMs: Math.round(response.timings.totalMs),
  };
}

/**
 * The key the route sends in its client dialect's key header (scheme stripped): the key an
 * agent's code would give its SDK. A route may send its own key whatever the sweep's (any-llm's
 * seeded virtual key); an SDK given another key would send that one too, in its own header
 * (the Anthropic SDK sends `Authorization: Bearer` beside the route's `x-api-key`).
 */
function routeKey(client: ClientDialect, headers: Record<string, string>): string | undefined {
  const { header, scheme } = dialectModule(client).auth;
  const value = Object.entries(headers).find(([name]) => name.toLowerCase() === header)?.[1];
  if (value === undefined) return undefined;
  return scheme && value.startsWith(`${scheme} `) ? value.slice(scheme.length + 1) : value;
}

export async function runLoop(target: LoopTarget, variant: LoopVariant): Promise<LoopRun> {
  const { route, mock } = target;
  const started = performance.now();
  const nonce = newNonce();
  mock.stage({
    match: { nonce },
    times: 1,
    sequence: [
      { status: 200, body: { canonical: turnOneReply(variant, route.backend) } },
      { status: 200, body: { canonical: finalReply() } },
    ],
  });
  const exchanges: ClientExchange[] = [];
  const headers = route.headers({ mockUrl: () => mock.url, apiKey: target.apiKey });
  const agent = await AGENTS[route.client](
    {
      fetch: recordingFetch(
        target.baseUrl,
        ingressPath(route, "non-stream"),
        target.timeoutMs,
        exchanges,
      ),
      headers,
      apiKey: routeKey(route.client, headers) ?? target.apiKey,
      model: route.model(target.backendModel),
      timeoutMs: target.timeoutMs,
    },
    variant,
    loopTask(nonce),
  );
  const forwarded = await collectRecords([mock], nonce, 50);
  const outcome = judgeLoop({
    variant,
    backend: route.backend,
    agent,
    forwarded,
    replies: exchanges.map((e) => ({
      status: e.response.status,
      body: e.response.body.toString("utf8"),
    })),
  });
  return {
    variant: variant.id,
    nonce,
    outcome,
    turns: exchanges.map(storedTurn),
    forwarded,
    totalMs: Math.round(performance.now() - started),
  };
}
