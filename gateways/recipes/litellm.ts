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
import type { FallbackSupport, GatewayAdapter, LaunchContext } from "../adapter.ts";
import { binaryAdapter } from "../binary.ts";
import {
  prefixedRows,
  q,
  RECIPE_MODEL,
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

/** The model group a fallback request names for a provider: the second target's listener. */
export function litellmFallbackGroup(prefix: string): string {
  return `gatecheck-fallback-${prefix}`;
}

export function litellmConfigYaml(ctx: Pick<LaunchContext, "mockUrl" | "fallbackMockUrl">): string {
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
  // The second target: one group per provider, used only when a request names it in
  // `fallbacks`, so it changes nothing for other requests.
  const second = ctx.fallbackMockUrl;
  for (const p of second ? LITELLM_PROVIDERS : []) {
    lines.push(
      `  - model_name: ${q(litellmFallbackGroup(p.prefix))}`,
      "    litellm_params:",
      `      model: ${q(`${p.prefix}/${RECIPE_MODEL}`)}`,
      `      api_base: ${q(p.apiBase(second?.(p.backend) ?? ""))}`,
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

/**
 * Client-side fallbacks: the request body names model groups to try after the first fails
 * (`"fallbacks": ["<group>"]`); the groups point at the second listener. LiteLLM does not
 * fall back on a 400 BadRequest (BerriAI/litellm#12503); 429 and 5xx move. Not measured
 * here: no `litellm` binary on the build machine.
 * @see https://docs.litellm.ai/docs/proxy/client_side_fallbacks
 */
export const LITELLM_FALLBACK: FallbackSupport = {
  supported: true,
  onStatuses: [429, 500, 502, 503, 504],
  // Routes whose backend has a fallback group (the Responses backend has none).
  routes: ROWS.filter((r) => LITELLM_PROVIDERS.some((p) => p.backend === r.backend)).map(
    (r) => r.id,
  ),
  how: 'request body "fallbacks": ["gatecheck-fallback-<provider>"], a model group on the second listener',
  see: "https://docs.litellm.ai/docs/proxy/client_side_fallbacks",
  body: (route) => {
    const provider = LITELLM_PROVIDERS.find((p) => p.backend === route.backend);
    return provider ? { fallbacks: [litellmFallbackGroup(provider.prefix)] } : {};
  },
};

export const litellm: GatewayAdapter = {
  ...binaryAdapter({
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
  }),
  fallback: LITELLM_FALLBACK,
};
