/**
 * Bifrost (Maxim), found on PATH as `bifrost` (the binary `npx @maximhq/bifrost` fetches
 * from GitHub releases, unreachable here). File mode: `config.json` in the app dir with
 * `config_store` disabled; each provider's `network_config.base_url` points at the mock.
 * Clients name `<provider>/<model>`; Anthropic-style clients use the `/anthropic` mount.
 * @see https://docs.getbifrost.ai/deployment-guides/config-json
 * @see https://docs.getbifrost.ai/quickstart/gateway/setting-up (-app-dir, -port, -host)
 */
import type { Dialect } from "../../dialects/dialect.ts";
import type { LaunchContext } from "../adapter.ts";
import { binaryAdapter } from "../binary.ts";
import {
  prefixedRows,
  RECIPE_PROVIDER_KEY,
  type RecipeRouteRow,
  recipeRoutes,
  writeWorkFile,
} from "./recipe-kit.ts";

export const BIFROST_PROVIDERS = [
  { name: "openai", backend: "openai-chat" },
  { name: "anthropic", backend: "anthropic-messages" },
  { name: "gemini", backend: "gemini" },
  { name: "ollama", backend: "ollama" },
] as const satisfies readonly { name: string; backend: Dialect }[];

export function bifrostConfig(ctx: Pick<LaunchContext, "mockUrl">) {
  return {
    client: { drop_excess_requests: false, enable_logging: false },
    providers: Object.fromEntries(
      BIFROST_PROVIDERS.map((p) => [
        p.name,
        {
          keys: [
            { name: `gatecheck-${p.name}`, value: RECIPE_PROVIDER_KEY, models: ["*"], weight: 1 },
          ],
          network_config: { base_url: ctx.mockUrl(p.backend) },
        },
      ]),
    ),
    config_store: { enabled: false },
  };
}

const ROWS: RecipeRouteRow[] = prefixedRows(
  {
    "openai-chat": "/v1/chat/completions",
    "anthropic-messages": "/anthropic/v1/messages",
    "openai-responses": "/v1/responses",
  },
  [
    ["openai-chat", "openai-chat", "openai"],
    ["openai-chat", "anthropic-messages", "anthropic"],
    ["openai-chat", "gemini", "gemini"],
    ["openai-chat", "ollama", "ollama"],
    ["anthropic-messages", "anthropic-messages", "anthropic"],
    ["anthropic-messages", "openai-chat", "openai"],
    ["openai-responses", "openai-responses", "openai"],
  ],
);

/** Why the sweep cannot install Bifrost itself (issue 22; docs/gateways.md). */
export const BIFROST_UNAVAILABLE =
  "cannot be built from a registry: its npm package downloads its binary at install time, and its Go module embeds a UI folder the module does not contain";

export const bifrost = binaryAdapter({
  name: "bifrost",
  description: "Bifrost gateway (binary `bifrost` on PATH, or --attach), file-mode config.json",
  binary: "bifrost",
  unavailable: BIFROST_UNAVAILABLE,
  writeConfig: async (ctx) => [
    await writeWorkFile(
      ctx,
      "bifrost/config.json",
      `${JSON.stringify(bifrostConfig(ctx), null, 2)}\n`,
    ),
  ],
  command: (ctx, binary) => ({
    command: binary,
    args: ["-app-dir", `${ctx.workdir}/bifrost`, "-host", "127.0.0.1", "-port", String(ctx.port)],
    readyPath: "/health",
  }),
  routes: () => recipeRoutes(ROWS),
});
