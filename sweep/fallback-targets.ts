/**
 * Fallback probes through the sweep: a second mock listener plays the second target. For a
 * fallback probe the first step of its upstream sequence is staged on the gateway's own mock
 * (every time: a gateway that retries the first target keeps failing), the second step on the
 * second listener; the client request names both targets (by host) and the statuses the
 * gateway is configured to move on, so the lens, and a later `rescore`, judge from bytes.
 */
import type { Dialect } from "../dialects/dialect.ts";
import { ANY_NON_2XX, type ExchangeContext } from "../dialects/wire/exchange.ts";
import type {
  FallbackSupport,
  GatewayAdapter,
  GatewayRoute,
  LaunchContext,
} from "../gateways/adapter.ts";
import type { MockHandle } from "../mock-upstream/index.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import { StageError, stepSpec } from "./stage-upstream.ts";

export type SupportedFallback = Extract<FallbackSupport, { supported: true }>;

/** The second target of a column: its mock listener and how the gateway is pointed at it. */
export interface FallbackTarget {
  mock: MockHandle;
  support: SupportedFallback;
}

export function isFallbackProbe(probe: Probe): boolean {
  return probe.fallback === true;
}

/** Why a fallback cell cannot run on this gateway and route; undefined when it can. */
export function fallbackNotRunReason(
  adapter: GatewayAdapter,
  route: GatewayRoute,
): string | undefined {
  const support = adapter.fallback;
  if (!support) return `${adapter.name}: fallback not examined for this gateway yet`;
  if (!support.supported) return `${adapter.name}: no fallback (${support.reason})`;
  if (support.routes && !support.routes.includes(route.id))
    return `${adapter.name}: fallback configured on ${support.routes.join(", ")} only, not ${route.id}`;
  return undefined;
}

/** The adapter with the second target's URL handed to its config writer at launch. */
export function withFallbackTarget(adapter: GatewayAdapter, second: MockHandle): GatewayAdapter {
  const fallbackMockUrl = (_backend: Dialect) => second.url;
  const withTarget = (ctx: LaunchContext): LaunchContext => ({ ...ctx, fallbackMockUrl });
  return {
    ...adapter,
    writeConfig: (ctx) => adapter.writeConfig(withTarget(ctx)),
    launch: (ctx) => adapter.launch(withTarget(ctx)),
  };
}

/** The two staged replies of one fallback attempt: the first target's, the second's. */
export function fallbackStages(
  probe: Probe,
  nonce: string,
  backend: Dialect,
): { first: Record<string, unknown>; second: Record<string, unknown> } {
  const upstream = probe.upstream;
  const steps = upstream && "sequence" in upstream ? upstream.sequence : [];
  const [firstStep, secondStep] = steps;
  if (!firstStep || !secondStep)
    throw new StageError(`probe ${probe.id} is a fallback probe without two upstream steps`);
  const match = { nonce };
  return {
    first: { match, times: "always", reply: stepSpec(probe, firstStep, backend) },
    second: { match, times: "always", reply: stepSpec(probe, secondStep, backend) },
  };
}

/**
 * What the second listener answers a request no fallback probe staged (a gateway whose
 * fallback is process-wide moves every failing request there): a 503, so the caller is still
 * told the first target's failure, and the other failure cells keep their meaning.
 */
export const SECOND_TARGET_DEFAULT = {
  match: {},
  times: "always",
  reply: {
    status: 503,
    body: {
      error: {
        message: "gatecheck second target: nothing staged for this request",
        type: "api_error",
      },
    },
  },
} as const;

function hostOf(url: string): string {
  return new URL(url).host;
}

/**
 * Client headers and body keys of a fallback attempt, and the context that names the targets
 * for the judge (never sent to the gateway).
 */
export function fallbackRequest(
  route: GatewayRoute,
  target: FallbackTarget,
  first: MockHandle,
  apiKey: string,
  backendModel: string,
): { headers: Record<string, string>; body: Record<string, unknown>; context: ExchangeContext } {
  const { support, mock: second } = target;
  const headers = support.headers
    ? support.headers(route, {
        primaryUrl: () => first.url,
        secondaryUrl: () => second.url,
        apiKey,
      })
    : route.headers({ mockUrl: () => first.url, apiKey });
  const on = support.onStatuses === ANY_NON_2XX ? ANY_NON_2XX : [...support.onStatuses];
  return {
    headers,
    body: support.body ? support.body(route, backendModel) : {},
    context: { fallback: { targets: [hostOf(first.url), hostOf(second.url)], on } },
  };
}
