/**
 * Where gateways are installed: one folder per `name@version[+variant]` under
 * `<repo>/.gatecheck-cache/gateways/` (git-ignored), or `$GATECHECK_CACHE/gateways/`.
 * Two versions of one gateway are two folders, so both can be columns of one sweep.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type GatewaySpec, gatewayLabel } from "./adapter.ts";

export const REPO_ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));

export function gatewayCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const root = env.GATECHECK_CACHE
    ? resolve(env.GATECHECK_CACHE)
    : join(REPO_ROOT, ".gatecheck-cache");
  return join(root, "gateways");
}

export function installDirFor(cacheDir: string, spec: GatewaySpec): string {
  return join(cacheDir, gatewayLabel(spec));
}
