/**
 * LiteLLM proxy (PyPI `litellm[proxy]`), found on PATH as `litellm`.
 * One wildcard deployment per provider, each pointed at the mock with `api_base`; the
 * client names `<provider>/<model>`. Telemetry off; no master key, so any client key passes.
 * @see https://docs.litellm.ai/docs/proxy/configs
 * @see https://docs.litellm.ai/docs/providers/anthropic (api_base without /v1)
 * @see https://docs.litellm.ai/docs/anthropic_completion (/v1/messages ingress)
 * @see https://docs.litellm.ai/docs/response_api (/v1/responses ingress)
 */
import type { Dialect } from "../../dialects/dialect.ts";
import type { LaunchContext } from "../adapter.ts";
import { binaryAdapter } from "../binary.ts";
import {
  prefixedRows,
  q,
  RECIPE_PROVIDER_KEY,
  type RecipeRouteRow,
  recipeRoutes,
  writeWorkFile,
} from "./recipe-kit.ts";

/** LiteLLM provider prefix -> backend dialect it speaks, and the api_base it wants. */
export const LITELLM_PROVIDERS = [
  { prefix: "openai", backend: "openai-chat", apiBase: (m: string) => `${m}/v1` },
  { prefix: "anthropic", backend: "anthropic-messages", apiBase: (m: string) => m },
  { prefix: "gemini", backend: "gemini", apiBase: (m: string) => `${m}/v1beta` },
  { prefix: "ollama_chat", backend: "ollama", apiBase: (m: string) => m },
] as const satisfies readonly { prefix: string; backend: Dialect; apiBase(m: string): string }[];

export function litellmConfigYaml(ctx: Pick<LaunchContext, "mockUrl">): string {
  const lines = ["model_list:"];
  for (const p of LITELLM_PROVIDERS) {
    lines.push(
      `  - model_name: ${q(`${p.prefix}/*`)}`,
      "    litellm_params:",
      `      model: ${q(`${p.prefix}/*`)}`,
      `      api_base: ${q(p.apiBase(ctx.mockUrl(p.backend)))}`,
      `      api_key: ${q(RECIPE_PROVIDER_KEY)}`,
    );
  }
  lines.push("litellm_settings:", "  telemetry: false", "  drop_params: false", "");
  return lines.join("\n");
}

const ROWS: RecipeRouteRow[] = prefixedRows(
  {
    "openai-chat": "/v1/chat/completions",
    "anthropic-messages": "/v1/messages",
    "openai-responses": "/v1/responses",
  },
  [
    ["openai-chat", "openai-chat", "openai"],
    ["openai-chat", "anthropic-messages", "anthropic"],
    ["openai-chat", "gemini", "gemini"],
    ["openai-chat", "ollama", "ollama_chat"],
    ["anthropic-messages", "anthropic-messages", "anthropic"],
    ["anthropic-messages", "openai-chat", "openai"],
    ["openai-responses", "openai-responses", "openai"],
    ["openai-responses", "anthropic-messages", "anthropic"],
  ],
);

export const litellm = binaryAdapter({
  name: "litellm",
  description: "LiteLLM proxy (binary `litellm` on PATH, from PyPI litellm[proxy])",
  binary: "litellm",
  writeConfig: async (ctx) => [await writeWorkFile(ctx, "litellm.yaml", litellmConfigYaml(ctx))],
  command: (ctx, binary) => ({
    command: binary,
    args: [
      "--config",
      `${ctx.workdir}/litellm.yaml`,
      "--host",
      "127.0.0.1",
      "--port",
      String(ctx.port),
    ],
    env: { LITELLM_TELEMETRY: "False", LITELLM_LOCAL_MODEL_COST_MAP: "True" },
    readyPath: "/health/liveliness",
  }),
  routes: () => recipeRoutes(ROWS),
});
