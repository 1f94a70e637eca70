/**
 * Columns for the sweep's own tests: the deliberately bad gateways in `fixtures/`, run as
 * real processes through the generic (JSON-file) adapter with extra flags.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { GatewayAdapter } from "../gateways/adapter.ts";
import { type GatewayFile, genericAdapter, parseGatewayFile } from "../gateways/generic.ts";

/** `fixtures/<fixture>.json` with its script path made absolute and `args` appended. */
function fixtureGateway(
  fixture: string,
  args: readonly string[],
  name?: string,
  extraRoutes: readonly GatewayFile["routes"][number][] = [],
): GatewayAdapter {
  const file = fileURLToPath(new URL(`./fixtures/${fixture}.json`, import.meta.url));
  const script = fileURLToPath(new URL(`./fixtures/${fixture}.mjs`, import.meta.url));
  const def = parseGatewayFile(JSON.parse(readFileSync(file, "utf8")), file);
  def.command = [...def.command.map((arg) => (arg === `./${fixture}.mjs` ? script : arg)), ...args];
  if (name) def.name = name;
  def.routes.push(...extraRoutes);
  return genericAdapter(def);
}

/** The route the lossy gateway's misconfigured column adds (`misroutedGateway`). */
export const MISROUTED_ROUTE = "openai-chat->openai-chat:custom-host";

/**
 * The lossy gateway with a second, deliberately misconfigured route: its base URL header
 * (`x-lossy-upstream-base`, which the gateway appends `/v1/chat/completions` to) is given the
 * mock's URL with `/v1`, as Portkey's DeepSeek custom host was, so every request on it is
 * forwarded to `/v1/v1/chat/completions`: the rig's fault, which the route preflight catches.
 */
export function misroutedGateway(): GatewayAdapter {
  return fixtureGateway("lossy-gateway", [], "misrouted", [
    {
      id: MISROUTED_ROUTE,
      client: "openai-chat",
      backend: "openai-chat",
      ingressPath: "/v1/chat/completions",
      headers: { authorization: "Bearer {apiKey}", "x-lossy-upstream-base": "{mockUrl}/v1" },
      model: "{model}",
      native: false,
      status: "works",
    },
  ]);
}

/**
 * Drops `stop`, rewrites `temperature`, leaks `x-api-key`; optionally crashes after N requests,
 * stops answering (hangs) after N requests, or cuts the tool-call arguments of the JSON replies it passes on (a defect of its own).
 */
export function lossyGateway(
  options: {
    crashAfter?: number;
    hangAfter?: number;
    name?: string;
    cutToolArguments?: boolean;
  } = {},
): GatewayAdapter {
  const args = options.crashAfter === undefined ? [] : [`--crash-after=${options.crashAfter}`];
  if (options.hangAfter !== undefined) args.push(`--hang-after=${options.hangAfter}`);
  if (options.cutToolArguments) args.push("--cut-tool-arguments");
  return fixtureGateway("lossy-gateway", args, options.name);
}

/** Relabels upstream errors as 200, retries everything, or never gives up. */
export function failingGateway(behaviour: "relabel" | "retry" | "forever"): GatewayAdapter {
  return fixtureGateway("failing-gateway", [`--behaviour=${behaviour}`], `failing-${behaviour}`);
}

/**
 * Two targets per request in `x-fallback-targets`: `never` never falls back (configured to move
 * on 429/500/502/503, so a 400 stays rightly), `good` moves on any non-2xx, `lossy-hop` moves
 * but drops `temperature` and `stop` from the second request.
 */
export function fallbackGateway(behaviour: "never" | "good" | "lossy-hop"): GatewayAdapter {
  const adapter = fixtureGateway(
    "fallback-gateway",
    [`--behaviour=${behaviour}`],
    `fallback-${behaviour}`,
  );
  return {
    ...adapter,
    fallback: {
      supported: true,
      onStatuses: behaviour === "never" ? [429, 500, 502, 503] : "any-non-2xx",
      how: "x-fallback-targets: <first base URL> <second base URL>",
      see: "sweep/fixtures/fallback-gateway.mjs",
      headers: (route, targets) => ({
        authorization: `Bearer ${targets.apiKey}`,
        "x-fallback-targets": `${targets.primaryUrl(route.backend)} ${targets.secondaryUrl(route.backend)}`,
      }),
    },
  };
}
