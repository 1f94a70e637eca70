/**
 * The shape every PyPI-installed gateway shares: a virtualenv per version filled from the
 * committed hash lock (pip-install.ts), the version read back from the venv, the config
 * written, the process launched from the venv. A recipe supplies only what differs.
 */
import type {
  FallbackSupport,
  GatewayAdapter,
  GatewayRoute,
  GatewaySpec,
  LaunchContext,
} from "./adapter.ts";
import { GatewayError, gatewayLabel } from "./adapter.ts";
import { installDirFor } from "./cache.ts";
import type { CitedConfig } from "./cited.ts";
import { launchProcess, type ProcessLaunch, runPrepared } from "./launch.ts";
import { installedDistribution, installPythonGateway } from "./pip-install.ts";
import type { PythonGateway } from "./python-lock.ts";

/**
 * Readiness deadline of a Python gateway: LiteLLM's proxy took 8 s to answer on a quiet
 * machine and did not within 30 s while the 2-core machine ran a load average of 12.
 */
export const PYTHON_READY_TIMEOUT_MS = 180_000;

export interface PythonGatewayDefinition {
  python: PythonGateway;
  description: string;
  defaultVersion: string;
  writeConfig(ctx: LaunchContext): Promise<string[]>;
  /** How to start it, given its install folder (the venv is `<dir>/venv`). */
  command(ctx: LaunchContext, installDir: string): ProcessLaunch;
  /** A one-shot step run to completion before the start (seeding a database). */
  prepare?(ctx: LaunchContext, installDir: string): ProcessLaunch;
  routes(spec: GatewaySpec): GatewayRoute[];
  fallback?: FallbackSupport;
  citedConfig?(ctx: LaunchContext): CitedConfig;
  timerSlotsPerSlot?: number;
  sleepsBeforeRetry?: boolean;
}

export function pythonAdapter(def: PythonGatewayDefinition): GatewayAdapter {
  return {
    name: def.python.name,
    description: def.description,
    defaultVersion: def.defaultVersion,
    source: "pypi",
    install: (spec, ctx) => installPythonGateway(spec, def.python, ctx),
    version: (spec, ctx) =>
      installedDistribution(installDirFor(ctx.cacheDir, spec), def.python.distribution),
    writeConfig: def.writeConfig,
    async launch(ctx) {
      const dir = ctx.install.dir;
      if (!dir) throw new GatewayError("not-installed", `${gatewayLabel(ctx.spec)}: not installed`);
      await def.writeConfig(ctx);
      if (def.prepare) await runPrepared(ctx, def.prepare(ctx, dir));
      return launchProcess(ctx, def.command(ctx, dir));
    },
    routes: def.routes,
    ...(def.fallback && { fallback: def.fallback }),
    ...(def.citedConfig && { citedConfig: def.citedConfig }),
    ...(def.timerSlotsPerSlot !== undefined && { timerSlotsPerSlot: def.timerSlotsPerSlot }),
    ...(def.sleepsBeforeRetry !== undefined && { sleepsBeforeRetry: def.sleepsBeforeRetry }),
  };
}
