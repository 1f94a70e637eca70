/**
 * What the sweep calls: bring one column up, or say why it cannot run.
 * install (cached) -> attach or launch -> RunningGateway; every failure becomes a NotRun
 * with its evidence, and no process is left behind on any path.
 */

import { resolve } from "node:path";
import type { Dialect } from "../dialects/dialect.ts";
import {
  type GatewayAdapter,
  GatewayError,
  type GatewayRoute,
  type GatewaySpec,
  gatewayLabel,
  type InstallResult,
  type NotRun,
  type RunningGateway,
} from "./adapter.ts";
import { gatewayCacheDir } from "./cache.ts";
import { freePort, probeHttp } from "./ports.ts";

export interface StartOptions {
  /** Per-run folder for this gateway (config, log, HOME). */
  workdir: string;
  mockUrl(backend: Dialect, persona?: string): string;
  /** Install cache root; defaults to `gatewayCacheDir()`. */
  cacheDir?: string;
  /** Listen here; when something already answers on it, attach instead of launching. */
  port?: number;
  /** Use the gateway already running at this URL; never launch. */
  attachUrl?: string;
  readyTimeoutMs?: number;
  /** The backend model names requests will name (LaunchContext.models). */
  models?: readonly string[];
  signal?: AbortSignal;
  /** Told what an install does and how long it took. */
  report?(line: string): void;
}

export type StartResult =
  | {
      status: "running";
      label: string;
      gateway: RunningGateway;
      routes: GatewayRoute[];
      install: Extract<InstallResult, { status: "ok" }>;
    }
  | (NotRun & { label: string });

export function attachedGateway(label: string, baseUrl: string): RunningGateway {
  return {
    label,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    attached: true,
    exited: () => undefined,
    logTail: () => [],
    stop: async () => ({ gone: true, how: "not-owned" }),
  };
}

export async function startGateway(
  adapter: GatewayAdapter,
  spec: GatewaySpec,
  options: StartOptions,
): Promise<StartResult> {
  const label = gatewayLabel(spec);
  const routes = adapter.routes(spec);
  const cacheDir = options.cacheDir ?? gatewayCacheDir();
  const notRun = (n: NotRun): StartResult => ({ ...n, label });

  const attachTo =
    options.attachUrl ??
    (options.port !== undefined &&
    (await probeHttp(`http://127.0.0.1:${options.port}/`, 500)) !== undefined
      ? `http://127.0.0.1:${options.port}`
      : undefined);
  if (attachTo || adapter.source === "attach") {
    if (!attachTo) {
      const why = adapter.unavailable ? `${adapter.unavailable}; ` : "";
      return notRun({
        status: "not-run",
        reason: `${label}: ${why}attach-only: run it yourself and pass --attach ${adapter.name}=URL`,
      });
    }
    if ((await probeHttp(`${attachTo.replace(/\/+$/, "")}/`, 2000)) === undefined) {
      return notRun({ status: "not-run", reason: `${label}: nothing answers at ${attachTo}` });
    }
    return {
      status: "running",
      label,
      gateway: attachedGateway(label, attachTo),
      routes,
      install: { status: "ok", cached: true },
    };
  }

  const install = await adapter.install(spec, {
    cacheDir,
    ...(options.signal && { signal: options.signal }),
    ...(options.report && { report: options.report }),
  });
  if (install.status !== "ok") return notRun(install);
  if (options.signal?.aborted)
    return notRun({ status: "not-run", reason: `${label}: interrupted` });
  try {
    const gateway = await adapter.launch({
      spec,
      install,
      // Gateways run with their own cwd and HOME: a relative work folder would point elsewhere.
      workdir: resolve(options.workdir),
      mockUrl: options.mockUrl,
      port: options.port ?? (await freePort()),
      ...(options.readyTimeoutMs !== undefined && { readyTimeoutMs: options.readyTimeoutMs }),
      ...(options.models && { models: options.models }),
      ...(options.signal && { signal: options.signal }),
    });
    return { status: "running", label, gateway, routes, install };
  } catch (error) {
    if (error instanceof GatewayError) return notRun(error.toNotRun());
    return notRun({ status: "not-run", reason: `${label}: ${(error as Error).message}` });
  }
}
