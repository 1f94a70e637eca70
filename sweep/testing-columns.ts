/**
 * Columns for the sweep's own tests: the deliberately lossy gateway of
 * `fixtures/lossy-gateway.mjs`, run as a real process through the generic (JSON-file)
 * adapter, optionally set to crash after N requests.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { GatewayAdapter } from "../gateways/adapter.ts";
import { genericAdapter, parseGatewayFile } from "../gateways/generic.ts";

const FIXTURE = fileURLToPath(new URL("./fixtures/lossy-gateway.json", import.meta.url));
const SCRIPT = fileURLToPath(new URL("./fixtures/lossy-gateway.mjs", import.meta.url));

export function lossyGateway(options: { crashAfter?: number; name?: string } = {}): GatewayAdapter {
  const def = parseGatewayFile(JSON.parse(readFileSync(FIXTURE, "utf8")), FIXTURE);
  def.command = def.command.map((arg) => (arg === "./lossy-gateway.mjs" ? SCRIPT : arg));
  if (options.crashAfter !== undefined) def.command.push(`--crash-after=${options.crashAfter}`);
  if (options.name) def.name = options.name;
  return genericAdapter(def);
}
