/**
 * Gateways that come as a binary someone installed (LiteLLM from PyPI, Bifrost and GoModel
 * from Go or containers): found on PATH, never installed by us. Absent means
 * `not-run: <binary> not found on PATH`, and the config writer is still testable.
 */
import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import type {
  GatewayAdapter,
  GatewayRoute,
  GatewaySpec,
  InstallResult,
  LaunchContext,
} from "./adapter.ts";
import { GatewayError, gatewayLabel } from "./adapter.ts";
import { launchProcess, type ProcessLaunch } from "./launch.ts";

/** Absolute path of an executable: as given when it has a slash, else the first on PATH. */
export function findExecutable(name: string, path = process.env.PATH ?? ""): string | undefined {
  const candidates = name.includes("/")
    ? [name]
    : path
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, name));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return isAbsolute(candidate) ? candidate : join(process.cwd(), candidate);
    } catch {
      // not here
    }
  }
  return undefined;
}

/** First line of `<binary> --version`, or undefined when it fails within 5 s. */
export function binaryVersion(binary: string, args: readonly string[] = ["--version"]) {
  return new Promise<string | undefined>((resolve) => {
    execFile(
      binary,
      [...args],
      { timeout: 5000, env: { PATH: process.env.PATH ?? "" } },
      (error, stdout, stderr) => {
        const line = `${stdout}\n${stderr}`.split("\n").find((l) => /\d+\.\d+/.test(l));
        resolve(error && !line ? undefined : line?.trim());
      },
    );
  });
}

/** "system": whatever version is on PATH; the real one is read with `--version`. */
export const SYSTEM_VERSION = "system";

export interface BinaryGatewayDefinition {
  name: string;
  description: string;
  binary: string;
  versionArgs?: readonly string[];
  /** Why it cannot be installed from a registry (said instead of "not found on PATH"). */
  unavailable?: string;
  writeConfig(ctx: LaunchContext): Promise<string[]>;
  command(ctx: LaunchContext, binaryPath: string): ProcessLaunch;
  routes(spec: GatewaySpec): GatewayRoute[];
}

/** The not-run reason of a binary gateway that is not on PATH. */
export function missingBinaryReason(
  label: string,
  def: { name: string; binary: string; unavailable?: string },
): string {
  return def.unavailable
    ? `${label}: ${def.unavailable}; run it yourself and pass --attach ${def.name}=URL (or put \`${def.binary}\` on PATH)`
    : `${label}: ${def.binary} not found on PATH`;
}

export function binaryAdapter(def: BinaryGatewayDefinition): GatewayAdapter {
  return {
    name: def.name,
    description: def.description,
    defaultVersion: SYSTEM_VERSION,
    source: "binary",
    binary: def.binary,
    ...(def.unavailable && { unavailable: def.unavailable }),
    async install(spec): Promise<InstallResult> {
      const found = findExecutable(def.binary);
      if (!found)
        return { status: "not-run", reason: missingBinaryReason(gatewayLabel(spec), def) };
      const version = await binaryVersion(found, def.versionArgs);
      return { status: "ok", cached: true, ...(version && { version }) };
    },
    async version() {
      const found = findExecutable(def.binary);
      return found ? binaryVersion(found, def.versionArgs) : undefined;
    },
    writeConfig: def.writeConfig,
    async launch(ctx) {
      const found = findExecutable(def.binary);
      if (!found) {
        throw new GatewayError(
          "binary-not-found",
          missingBinaryReason(gatewayLabel(ctx.spec), def),
        );
      }
      await def.writeConfig(ctx);
      return launchProcess(ctx, def.command(ctx, found));
    },
    routes: def.routes,
  };
}
