/**
 * Where gateways are installed: one folder per `name@version[+variant]` under
 * `<repo>/.gatecheck-cache/gateways/` (git-ignored), or `$GATECHECK_CACHE/gateways/`.
 * Two versions of one gateway are two folders, so both can be columns of one sweep.
 */
import { existsSync, readdirSync } from "node:fs";
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

/** Labels installed in the cache for one gateway (`portkey@1.15.2`, `portkey@1.15.2+locked`). */
export function installedLabels(cacheDir: string, name: string): string[] {
  try {
    return readdirSync(cacheDir)
      .filter((entry) => entry.startsWith(`${name}@`) && !entry.includes(".install"))
      .filter((entry) => existsSync(join(cacheDir, entry, ".gatecheck-installed.json")))
      .sort();
  } catch {
    return [];
  }
}
