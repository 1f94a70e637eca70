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

const ROWS: RecipeRouteRow[] = [
  {
    id: "openai-chat->openai-chat",
    client: "openai-chat",
    backend: "openai-chat",
    ingressPath: "/v1/chat/completions",
    model: (m) => `openai/${m}`,
  },
  {
    id: "openai-chat->anthropic-messages",
    client: "openai-chat",
    backend: "anthropic-messages",
    ingressPath: "/v1/chat/completions",
    model: (m) => `anthropic/${m}`,
  },
  {
    id: "openai-chat->gemini",
    client: "openai-chat",
    backend: "gemini",
    ingressPath: "/v1/chat/completions",
    model: (m) => `gemini/${m}`,
  },
  {
    id: "openai-chat->ollama",
    client: "openai-chat",
    backend: "ollama",
    ingressPath: "/v1/chat/completions",
    model: (m) => `ollama/${m}`,
  },
  {
    id: "anthropic-messages->anthropic-messages",
    client: "anthropic-messages",
    backend: "anthropic-messages",
    ingressPath: "/anthropic/v1/messages",
    model: (m) => `anthropic/${m}`,
  },
  {
    id: "anthropic-messages->openai-chat",
    client: "anthropic-messages",
    backend: "openai-chat",
    ingressPath: "/anthropic/v1/messages",
    model: (m) => `openai/${m}`,
  },
  {
    id: "openai-responses->openai-responses",
    client: "openai-responses",
    backend: "openai-responses",
    ingressPath: "/v1/responses",
    model: (m) => `openai/${m}`,
  },
];

export const bifrost = binaryAdapter({
  name: "bifrost",
  description: "Bifrost gateway (binary `bifrost` on PATH), file-mode config.json",
  binary: "bifrost",
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
