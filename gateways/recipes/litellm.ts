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
    model: (m) => `ollama_chat/${m}`,
  },
  {
    id: "anthropic-messages->anthropic-messages",
    client: "anthropic-messages",
    backend: "anthropic-messages",
    ingressPath: "/v1/messages",
    model: (m) => `anthropic/${m}`,
  },
  {
    id: "anthropic-messages->openai-chat",
    client: "anthropic-messages",
    backend: "openai-chat",
    ingressPath: "/v1/messages",
    model: (m) => `openai/${m}`,
  },
  {
    id: "openai-responses->openai-responses",
    client: "openai-responses",
    backend: "openai-responses",
    ingressPath: "/v1/responses",
    model: (m) => `openai/${m}`,
  },
  {
    id: "openai-responses->anthropic-messages",
    client: "openai-responses",
    backend: "anthropic-messages",
    ingressPath: "/v1/responses",
    model: (m) => `anthropic/${m}`,
  },
];

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
