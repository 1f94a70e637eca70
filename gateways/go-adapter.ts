/**
 * The shape every Go-module gateway shares: `go install` at the version's tag into a GOBIN
 * per version (go-install.ts), the config written, the binary launched; a gateway that binds
 * every interface with no flag against it runs confined to loopback (confine/netns.ts).
 */
import type { GatewayAdapter, GatewayRoute, GatewaySpec, LaunchContext } from "./adapter.ts";
import { GatewayError, gatewayLabel } from "./adapter.ts";
import { installDirFor } from "./cache.ts";
import { launchConfined } from "./confine/netns.ts";
import { type GoGateway, goBinary, installGoGateway } from "./go-install.ts";
import { readMarker } from "./install-dir.ts";
import { launchProcess, type ProcessLaunch } from "./launch.ts";

export interface GoGatewayDefinition {
  go: GoGateway;
  description: string;
  defaultVersion: string;
  /** It listens on every interface whatever it is told: run it in a namespace of its own. */
  bindsEveryInterface: boolean;
  writeConfig(ctx: LaunchContext): Promise<string[]>;
  command(ctx: LaunchContext, binary: string): ProcessLaunch;
  routes(spec: GatewaySpec): GatewayRoute[];
}

export function goAdapter(def: GoGatewayDefinition): GatewayAdapter {
  return {
    name: def.go.name,
    description: def.description,
    defaultVersion: def.defaultVersion,
    source: "go",
    install: (spec, ctx) => installGoGateway(spec, def.go, ctx),
    version: async (spec, ctx) => readMarker(installDirFor(ctx.cacheDir, spec))?.version,
    writeConfig: def.writeConfig,
    async launch(ctx) {
      const dir = ctx.install.dir;
      if (!dir) throw new GatewayError("not-installed", `${gatewayLabel(ctx.spec)}: not installed`);
      await def.writeConfig(ctx);
      const how = def.command(ctx, goBinary(dir, def.go));
      return def.bindsEveryInterface ? launchConfined(ctx, how) : launchProcess(ctx, how);
    },
    routes: def.routes,
  };
}
