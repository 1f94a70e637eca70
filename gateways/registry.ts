/**
 * Every gateway gatecheck knows by name, plus gateways described by a user's JSON file
 * (`gatecheck gateways doctor ./my-gateway.json`). Adding a gateway is one file and one
 * line here.
 */
import { type GatewayAdapter, GatewayError, type GatewaySpec } from "./adapter.ts";
import { claudeCodeRouter } from "./adapters/claude-code-router.ts";
import { direct } from "./adapters/direct.ts";
import { musistudioLlms } from "./adapters/musistudio-llms.ts";
import { portkey } from "./adapters/portkey.ts";
import { loadGatewayFile } from "./generic.ts";
import { anyLlm } from "./recipes/any-llm.ts";
import { axonhub, ollama, sglang, vllm } from "./recipes/attach-only.ts";
import { bifrost } from "./recipes/bifrost.ts";
import { gomodel } from "./recipes/gomodel.ts";
import { litellm } from "./recipes/litellm.ts";
import { switchyard } from "./recipes/switchyard.ts";
import { parseGatewaySpec } from "./spec.ts";

export const BUILTIN_ADAPTERS: readonly GatewayAdapter[] = [
  direct,
  portkey,
  claudeCodeRouter,
  musistudioLlms,
  litellm,
  bifrost,
  switchyard,
  gomodel,
  anyLlm,
  axonhub,
  vllm,
  sglang,
  ollama,
];

export function findAdapter(name: string): GatewayAdapter | undefined {
  return BUILTIN_ADAPTERS.find((a) => a.name === name);
}

export function requireAdapter(name: string): GatewayAdapter {
  const adapter = findAdapter(name);
  if (!adapter) {
    const known = BUILTIN_ADAPTERS.map((a) => a.name).join(", ");
    throw new GatewayError("unknown-gateway", `unknown gateway "${name}" (known: ${known})`);
  }
  return adapter;
}

/**
 * A gateway named on the command line: `portkey`, `portkey@1.15.2+locked`, or a path to a
 * user's JSON description (`./my-gateway.json`).
 */
export async function resolveGateway(
  text: string,
): Promise<{ adapter: GatewayAdapter; spec: GatewaySpec }> {
  if (text.endsWith(".json")) {
    const adapter = await loadGatewayFile(text);
    return { adapter, spec: { name: adapter.name, version: adapter.defaultVersion } };
  }
  const spec = parseGatewaySpec(text, (name) => requireAdapter(name).defaultVersion);
  return { adapter: requireAdapter(spec.name), spec };
}
