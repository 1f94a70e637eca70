/**
 * `@musistudio/llms`: the translation server inside claude-code-router, published alone as
 * a library (no executable). We start it with a small launcher (`preload/musistudio-llms-
 * server.mjs`) that hands it the config as `initialConfig`. Providers and routes mirror
 * claude-code-router's (the same "provider,model" split, only on /v1/messages), so the two
 * columns separate what CCR adds around its engine from what the engine itself does.
 * @see https://github.com/musistudio/llms
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ClientDialect } from "../../dialects/dialect.ts";
import type { GatewayAdapter, LaunchContext } from "../adapter.ts";
import { type CitedConfig, cited, plainJson, writeCitedFiles } from "../cited.ts";
import { npmAdapter } from "../npm-adapter.ts";
import { CCR_MODELS, ccrCitedConfig, claudeCodeRouter } from "./claude-code-router.ts";

const LAUNCHER = fileURLToPath(new URL("../preload/musistudio-llms-server.mjs", import.meta.url));

/** The ingresses claude-code-router itself serves (its Chat and Responses ones need a router). */
const CCR_OWN_INGRESSES: readonly ClientDialect[] = ["anthropic-messages"];

/**
 * The engine reads the same keys as CCR's config file, with `providers` in lower case
 * (`configService.get("providers")`, @musistudio/llms@1.0.53 dist/cjs/server.cjs); the
 * values, and their references, are CCR's.
 */
export function llmsCitedConfig(ctx: Pick<LaunchContext, "port" | "mockUrl">): CitedConfig {
  const { Providers, Router, ...rest } = ccrCitedConfig(ctx, CCR_MODELS);
  return {
    files: {
      "llms.config.json": { json: { ...rest, providers: Providers ?? [], Router: Router ?? {} } },
    },
    args: [
      cited(
        "llms.config.json",
        "gatecheck gateways/preload/musistudio-llms-server.mjs",
        "the engine has no executable: our launcher hands this file to its Server as initialConfig (@musistudio/llms@1.0.53 dist/cjs/server.cjs, ConfigService.loadConfig)",
      ),
    ],
    env: {},
  };
}

export function llmsConfig(ctx: Pick<LaunchContext, "port" | "mockUrl">) {
  const file = llmsCitedConfig(ctx).files["llms.config.json"];
  return file && "json" in file ? (plainJson(file.json) as Record<string, unknown>) : {};
}

async function writeLlmsConfig(ctx: LaunchContext): Promise<string[]> {
  return writeCitedFiles(ctx.workdir, llmsCitedConfig(ctx));
}

export const musistudioLlms: GatewayAdapter = {
  ...npmAdapter({
    name: "musistudio-llms",
    description: "@musistudio/llms (npm): claude-code-router's engine, run alone",
    packageName: "@musistudio/llms",
    defaultVersion: "1.0.53",
    writeConfig: writeLlmsConfig,
    command: (ctx, packageDir) => ({
      command: process.execPath,
      args: [
        LAUNCHER,
        packageDir,
        ...llmsCitedConfig(ctx).args.map((a) => join(ctx.workdir, a.value)),
      ],
      readyPath: "/health",
    }),
    // Run alone (1.0.53, newer than the 1.0.51 inside CCR 2.0.0), the engine also splits
    // "provider,model" on its OpenAI Chat and Responses ingresses: those routes work here.
    routes: (spec) =>
      claudeCodeRouter.routes(spec).map((route) => {
        if (CCR_OWN_INGRESSES.includes(route.client)) return route;
        const { notes: _ccrOnly, ...rest } = route;
        return { ...rest, status: "works" as const };
      }),
  }),
  fallback: {
    supported: false,
    reason:
      "no fallback chain in the engine: claude-code-router's `fallback` config is read by CCR's own server, not by @musistudio/llms 1.0.53",
    see: "docs/failure.md#fallback",
  },
  citedConfig: llmsCitedConfig,
};
