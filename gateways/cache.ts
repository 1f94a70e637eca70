/**
 * Where gateways are installed: one folder per `name@version[+variant]` under
 * `<repo>/.gatecheck-cache/gateways/` (git-ignored), or `$GATECHECK_CACHE/gateways/`.
 * Two versions of one gateway are two folders, so both can be columns of one sweep.
 */
import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { GatewayError, type GatewaySpec, gatewayLabel } from "./adapter.ts";

export const REPO_ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));

export function gatewayCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const root = env.GATECHECK_CACHE
    ? resolve(env.GATECHECK_CACHE)
    : join(REPO_ROOT, ".gatecheck-cache");
  return join(root, "gateways");
}

/**
 * The install folder of a column, one folder inside the cache: a failed install's folder is
 * deleted, so a label that would resolve anywhere else (a version from a gateway file) is refused.
 */
export function installDirFor(cacheDir: string, spec: GatewaySpec): string {
  const label = gatewayLabel(spec);
  const dir = resolve(cacheDir, label);
  if (dirname(dir) !== resolve(cacheDir) || basename(dir) !== label || label.includes("\0")) {
    throw new GatewayError(
      "bad-spec",
      `gateway ${JSON.stringify(label)}: its install folder would be ${dir}, not its own folder inside ${resolve(cacheDir)}; use a version of letters, digits, . _ -`,
    );
  }
  return dir;
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
