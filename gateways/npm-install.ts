/**
 * npm gateways installed on demand into their own cache folder, one per
 * `name@version[+variant]`, each a tiny private package whose only dependency is the
 * gateway. A variant adds npm `overrides` (e.g. the gateway's own lockfile versions).
 * The install runs in a temporary sibling folder renamed into place when done, so an
 * interrupted or failed install never looks installed; the log stays for the report.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GatewaySpec, InstallContext, InstallResult } from "./adapter.ts";
import { gatewayLabel } from "./adapter.ts";
import { installDirFor } from "./cache.ts";
import { readLogTail } from "./process-group.ts";
import { runLogged } from "./run-logged.ts";

export interface NpmPackagePlan {
  /** The npm package (`@portkey-ai/gateway`). */
  packageName: string;
  /** npm `overrides` for this variant, or none for the plain install users get. */
  overrides?: Record<string, string>;
  /** Dependencies whose resolved versions are reported with the install (`hono`). */
  watch?: readonly string[];
}

const MARKER = ".gatecheck-installed.json";
const INSTALL_TIMEOUT_MS = 300_000;

/** `installed` marker content: what was asked and what resolved. */
interface InstallMarker {
  label: string;
  packageName: string;
  version: string;
  overrides?: Record<string, string>;
  dependencies: Record<string, string>;
}

export function installedPackageVersion(dir: string, packageName: string): string | undefined {
  try {
    const pkg = JSON.parse(
      readFileSync(join(dir, "node_modules", packageName, "package.json"), "utf8"),
    );
    return typeof pkg.version === "string" ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}

export function readInstallMarker(dir: string): InstallMarker | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, MARKER), "utf8")) as InstallMarker;
  } catch {
    return undefined;
  }
}

/** npm's own variables from an enclosing `npm run`/`npx` would retarget the install. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^npm_/i.test(k) && !/^npm_config_(registry|cache|userconfig)$/i.test(k)) continue;
    env[k] = v;
  }
  return env;
}

function runNpm(
  args: string[],
  cwd: string,
  logPath: string,
  signal?: AbortSignal,
): Promise<number> {
  return runLogged({
    command: "npm",
    args,
    cwd,
    env: npmEnv(),
    logPath,
    timeoutMs: INSTALL_TIMEOUT_MS,
    ...(signal && { signal }),
  });
}

export async function installNpmGateway(
  spec: GatewaySpec,
  plan: NpmPackagePlan,
  ctx: InstallContext,
): Promise<InstallResult> {
  const label = gatewayLabel(spec);
  const dir = installDirFor(ctx.cacheDir, spec);
  const marker = readInstallMarker(dir);
  if (marker && installedPackageVersion(dir, plan.packageName) === spec.version) {
    return {
      status: "ok",
      dir,
      version: spec.version,
      logPath: join(dir, "install.log"),
      cached: true,
      dependencies: marker.dependencies,
    };
  }
  mkdirSync(ctx.cacheDir, { recursive: true });
  const staging = `${dir}.installing-${process.pid}-${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  const logPath = join(ctx.cacheDir, `${label}.install.log`);
  writeFileSync(
    logPath,
    `# gatecheck: npm install ${plan.packageName}@${spec.version} (${label})\n`,
  );
  const manifest = {
    name: "gatecheck-gateway-install",
    private: true,
    description: `gatecheck install of ${label}`,
    dependencies: { [plan.packageName]: spec.version },
    ...(plan.overrides && { overrides: plan.overrides }),
  };
  writeFileSync(join(staging, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const exitCode = await runNpm(
    ["install", "--no-audit", "--no-fund", "--no-update-notifier", "--loglevel=http"],
    staging,
    logPath,
    ctx.signal,
  );
  const installed = installedPackageVersion(staging, plan.packageName);
  if (exitCode !== 0 || installed !== spec.version) {
    rmSync(staging, { recursive: true, force: true });
    const why =
      exitCode !== 0 ? `npm install exited ${exitCode}` : `npm installed ${installed ?? "nothing"}`;
    return {
      status: "not-run",
      reason: `${label}: install failed (${why}); see ${logPath}`,
      logPath,
      exitCode,
      logTail: readLogTail(logPath, 15),
    };
  }
  const dependencies: Record<string, string> = {};
  for (const dep of plan.watch ?? []) {
    const v = installedPackageVersion(staging, dep);
    if (v) dependencies[dep] = v;
  }
  const content: InstallMarker = {
    label,
    packageName: plan.packageName,
    version: installed,
    ...(plan.overrides && { overrides: plan.overrides }),
    dependencies,
  };
  writeFileSync(join(staging, MARKER), `${JSON.stringify(content, null, 2)}\n`);
  renameSync(logPath, join(staging, "install.log"));
  rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(staging, dir);
  } catch (error) {
    // Another process finished the same install first: keep theirs.
    if (!existsSync(join(dir, MARKER))) throw error;
    rmSync(staging, { recursive: true, force: true });
  }
  return {
    status: "ok",
    dir,
    version: installed,
    logPath: join(dir, "install.log"),
    cached: false,
    dependencies,
  };
}
