/**
 * Columns for the sweep's own tests: the deliberately bad gateways in `fixtures/`, run as
 * real processes through the generic (JSON-file) adapter with extra flags.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { GatewayAdapter } from "../gateways/adapter.ts";
import { genericAdapter, parseGatewayFile } from "../gateways/generic.ts";

/** `fixtures/<fixture>.json` with its script path made absolute and `args` appended. */
function fixtureGateway(fixture: string, args: readonly string[], name?: string): GatewayAdapter {
  const file = fileURLToPath(new URL(`./fixtures/${fixture}.json`, import.meta.url));
  const script = fileURLToPath(new URL(`./fixtures/${fixture}.mjs`, import.meta.url));
  const def = parseGatewayFile(JSON.parse(readFileSync(file, "utf8")), file);
  def.command = [...def.command.map((arg) => (arg === `./${fixture}.mjs` ? script : arg)), ...args];
  if (name) def.name = name;
  return genericAdapter(def);
}

/** Drops `stop`, rewrites `temperature`, leaks `x-api-key`; optionally crashes after N requests. */
export function lossyGateway(options: { crashAfter?: number; name?: string } = {}): GatewayAdapter {
  const args = options.crashAfter === undefined ? [] : [`--crash-after=${options.crashAfter}`];
  return fixtureGateway("lossy-gateway", args, options.name);
}

/** Relabels upstream errors as 200, retries everything, or never gives up. */
export function failingGateway(behaviour: "relabel" | "retry" | "forever"): GatewayAdapter {
  return fixtureGateway("failing-gateway", [`--behaviour=${behaviour}`], `failing-${behaviour}`);
}
