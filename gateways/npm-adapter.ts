/**
 * The shape every npm-installed gateway shares: install into the per-version cache
 * (variants add npm overrides), read the version from the installed package, write the
 * config, launch as a process. A gateway file supplies only what differs.
 */
import { join } from "node:path";
import type {
  GatewayAdapter,
  GatewayRoute,
  GatewaySpec,
  InstallResult,
  LaunchContext,
} from "./adapter.ts";
import { GatewayError, gatewayLabel } from "./adapter.ts";
import { installDirFor } from "./cache.ts";
import { launchProcess, type ProcessLaunch } from "./launch.ts";
import { installedPackageVersion, installNpmGateway } from "./npm-install.ts";

export interface NpmVariant {
  description: string;
  overrides: Record<string, string>;
}

export interface NpmGatewayDefinition {
  name: string;
  description: string;
  packageName: string;
  defaultVersion: string;
  variants?: Record<string, NpmVariant>;
  /** Dependencies whose resolved versions are reported with an install. */
  watch?: readonly string[];
  writeConfig(ctx: LaunchContext): Promise<string[]>;
  /** How to start it, given the folder the package is installed in. */
  command(ctx: LaunchContext, packageDir: string): ProcessLaunch;
  routes(spec: GatewaySpec): GatewayRoute[];
}

export function npmAdapter(def: NpmGatewayDefinition): GatewayAdapter {
  const variantOf = (spec: GatewaySpec): NpmVariant | undefined =>
    spec.variant ? def.variants?.[spec.variant] : undefined;
  return {
    name: def.name,
    description: def.description,
    defaultVersion: def.defaultVersion,
    source: "npm",
    ...(def.variants && {
      variants: Object.fromEntries(
        Object.entries(def.variants).map(([k, v]) => [k, v.description]),
      ),
    }),
    async install(spec, ctx): Promise<InstallResult> {
      if (spec.variant && !variantOf(spec)) {
        const known = Object.keys(def.variants ?? {}).join(", ") || "none";
        return {
          status: "not-run",
          reason: `${gatewayLabel(spec)}: unknown variant "${spec.variant}" (known: ${known})`,
        };
      }
      const variant = variantOf(spec);
      return installNpmGateway(
        spec,
        {
          packageName: def.packageName,
          ...(variant && { overrides: variant.overrides }),
          ...(def.watch && { watch: def.watch }),
        },
        ctx,
      );
    },
    async version(spec, ctx) {
      return installedPackageVersion(installDirFor(ctx.cacheDir, spec), def.packageName);
    },
    writeConfig: def.writeConfig,
    async launch(ctx) {
      const dir = ctx.install.dir;
      if (!dir) {
        throw new GatewayError("not-installed", `${gatewayLabel(ctx.spec)}: not installed`);
      }
      await def.writeConfig(ctx);
      return launchProcess(ctx, def.command(ctx, join(dir, "node_modules", def.packageName)));
    },
    routes: def.routes,
  };
}
