/**
 * LiteLLM's `litellm.yaml` as gatecheck writes it, every line cited (gateways/cited.ts): one
 * wildcard deployment per provider, each pointed at the mock with `api_base`, the client
 * naming `<provider>/<model>`. The `api_base` of each provider is the mock standing in for
 * the provider's own base URL in the form LiteLLM appends its endpoint to, read in the
 * installed source (`litellm@1.96.2`, same in 1.83.9 where named).
 * @see https://docs.litellm.ai/docs/proxy/configs
 */
import type { Dialect } from "../../dialects/dialect.ts";
import type { LaunchContext } from "../adapter.ts";
import { type Cited, cited } from "../cited.ts";
import { q, RECIPE_MODEL, RECIPE_PROVIDER_KEY } from "./recipe-kit.ts";

const CONFIGS = "https://docs.litellm.ai/docs/proxy/configs";
const SRC = "litellm@1.96.2 site-packages/litellm";
const FAKE_KEY =
  "a fake gatecheck key in the deployment, as the docs' api_key; the client's own must never reach the upstream";

interface ApiBaseRule {
  apiBase(m: string): string;
  /** Where LiteLLM's use of `api_base` for this provider is documented or read. */
  ref: string;
  /** Which form of the provider's base URL the mock stands for, and why. */
  choice: string;
}

interface ProviderRow extends ApiBaseRule {
  prefix: string;
  backend: Dialect;
  /** The provider's LiteLLM page: the `<prefix>/<model>` a user writes. */
  see: string;
}

/** LiteLLM provider prefix -> backend dialect it speaks, and the api_base it wants. */
export const LITELLM_PROVIDERS = [
  {
    prefix: "openai",
    backend: "openai-chat",
    apiBase: (m: string) => `${m}/v1`,
    ref: "https://docs.litellm.ai/docs/providers/openai_compatible",
    choice:
      "OpenAI's https://api.openai.com/v1: the OpenAI client LiteLLM calls appends /chat/completions (or /responses) to api_base",
    see: "https://docs.litellm.ai/docs/providers/openai",
  },
  {
    prefix: "anthropic",
    backend: "anthropic-messages",
    apiBase: (m: string) => m,
    ref: `${SRC}/llms/anthropic/common_utils.py (get_api_base: default https://api.anthropic.com, /v1/messages appended)`,
    choice: "Anthropic's https://api.anthropic.com, without /v1 (LiteLLM adds /v1/messages)",
    see: "https://docs.litellm.ai/docs/providers/anthropic",
  },
  {
    prefix: "gemini",
    backend: "gemini",
    apiBase: (m: string) => `${m}/v1beta`,
    ref: `${SRC}/llms/vertex_ai/vertex_llm_base.py (_check_custom_proxy: gemini url = {api_base}/models/{model}:{endpoint})`,
    choice:
      "Google's https://generativelanguage.googleapis.com/v1beta: with a custom api_base LiteLLM appends /models/<model>:<endpoint>",
    see: "https://docs.litellm.ai/docs/providers/gemini",
  },
  {
    prefix: "ollama_chat",
    backend: "ollama",
    apiBase: (m: string) => m,
    ref: `${SRC}/llms/ollama/chat/transformation.py (get_complete_url: {api_base}/api/chat, default http://localhost:11434)`,
    choice: "Ollama's http://localhost:11434; ollama_chat/ calls its native /api/chat",
    see: "https://docs.litellm.ai/docs/providers/ollama",
  },
] as const satisfies readonly ProviderRow[];

/**
 * Strict providers (mock personas), each through the LiteLLM provider a user of that
 * provider configures: its own provider type where LiteLLM has one (`deepseek/`,
 * `moonshot/`), `openai/` at Google's OpenAI-compatible endpoint, `anthropic/` for
 * Anthropic's own checks. Each is a model group of its own (`group/*`) so plain routes
 * are untouched.
 */
export const LITELLM_PERSONAS = [
  {
    persona: "deepseek",
    group: "deepseek",
    provider: "deepseek",
    backend: "openai-chat",
    apiBase: (m: string) => `${m}/v1`,
    ref: `${SRC}/llms/deepseek/chat/transformation.py (get_complete_url: {api_base}/chat/completions; default https://api.deepseek.com/beta)`,
    choice:
      "DeepSeek's documented OpenAI-compatible base https://api.deepseek.com/v1 (https://api-docs.deepseek.com/); LiteLLM's default is DeepSeek's /beta endpoint, which the lens does not take for a Chat route. On Messages, 1.96.2 strips /v1 and calls <base>/anthropic/v1/messages (llms/deepseek/messages/transformation.py)",
    see: "https://docs.litellm.ai/docs/providers/deepseek",
  },
  {
    persona: "moonshot",
    group: "moonshot",
    provider: "moonshot",
    backend: "openai-chat",
    apiBase: (m: string) => `${m}/v1`,
    ref: `${SRC}/llms/moonshot/chat/transformation.py (default api_base https://api.moonshot.ai/v1)`,
    choice: "Moonshot's https://api.moonshot.ai/v1, LiteLLM's own default",
    see: "https://docs.litellm.ai/docs/providers/moonshot",
  },
  {
    persona: "google",
    group: "google-openai",
    provider: "openai",
    backend: "openai-chat",
    apiBase: (m: string) => m,
    ref: "https://ai.google.dev/gemini-api/docs/openai",
    choice:
      "Google's OpenAI-compatible base https://generativelanguage.googleapis.com/v1beta/openai/ (the mount is in the mock URL), through openai/ as LiteLLM's openai_compatible page says",
    see: "https://docs.litellm.ai/docs/providers/openai_compatible",
  },
  {
    persona: "anthropic",
    group: "anthropic-strict",
    provider: "anthropic",
    backend: "anthropic-messages",
    apiBase: (m: string) => m,
    ref: `${SRC}/llms/anthropic/common_utils.py (get_api_base: default https://api.anthropic.com, /v1/messages appended)`,
    choice: "Anthropic's https://api.anthropic.com, without /v1 (LiteLLM adds /v1/messages)",
    see: "https://docs.litellm.ai/docs/providers/anthropic",
  },
] as const satisfies readonly (ApiBaseRule & {
  persona: string;
  group: string;
  provider: string;
  backend: Dialect;
  see: string;
})[];

/** The model group a fallback request names for a provider: the second target's listener. */
export function litellmFallbackGroup(prefix: string): string {
  return `gatecheck-fallback-${prefix}`;
}

/**
 * What the config tells LiteLLM about the sweep's model: a reasoning model, as the mock is
 * (its replies carry thinking and reasoning). LiteLLM decides from its model map whether a
 * request may carry `reasoning_effort` or `thinking` (`supports_reasoning`): for a model it
 * does not list, such as the mock's, it refuses them (400 UnsupportedParamsError) before
 * any upstream call, which is our configuration speaking, not its translation. A user
 * deploying a model LiteLLM does not list declares it per deployment in `model_info`,
 * which LiteLLM registers in its model map under `<provider>/<model>`; a wildcard
 * deployment's `model_info` is registered under `<provider>/*`, which no lookup of a
 * concrete model reads, so the declaration is a deployment of that exact model.
 * @see https://docs.litellm.ai/docs/reasoning_content (Checking if a model supports reasoning, proxy)
 * @see https://github.com/BerriAI/litellm/blob/v1.96.2/litellm/router.py (_create_deployment: register_model)
 */
export const LITELLM_MODEL_INFO = { supports_reasoning: true } as const;

const MODEL_INFO_DOC = "https://docs.litellm.ai/docs/reasoning_content";

const modelInfoLines = (): Cited[] => [
  cited("    model_info:", MODEL_INFO_DOC),
  ...Object.entries(LITELLM_MODEL_INFO).map(([k, v]) =>
    cited(
      `      ${k}: ${JSON.stringify(v)}`,
      MODEL_INFO_DOC,
      "the mock is a reasoning model; undeclared, LiteLLM refuses reasoning fields before any upstream call",
    ),
  ),
];

/** One deployment: `model_name` the client names, `model` LiteLLM's provider route. */
function deployment(
  name: string,
  model: string,
  base: Cited,
  see: string,
  declared: boolean,
): Cited[] {
  return [
    cited(`  - model_name: ${q(name)}`, CONFIGS),
    cited("    litellm_params:", CONFIGS),
    cited(`      model: ${q(model)}`, see),
    cited(`      api_base: ${q(base.value)}`, base.ref, base.choice),
    cited(`      api_key: ${q(RECIPE_PROVIDER_KEY)}`, CONFIGS, FAKE_KEY),
    ...(declared ? modelInfoLines() : []),
  ];
}

const apiBase = (rule: ApiBaseRule, url: string): Cited =>
  cited(rule.apiBase(url), rule.ref, rule.choice);

export function litellmConfigLines(
  ctx: Pick<LaunchContext, "mockUrl" | "fallbackMockUrl" | "models">,
): Cited[] {
  const lines: Cited[] = [cited("model_list:", CONFIGS)];
  // The models requests will name, declared as LITELLM_MODEL_INFO says; the wildcards below
  // take any other model name.
  for (const model of ctx.models ?? []) {
    for (const p of LITELLM_PROVIDERS) {
      const base = apiBase(p, ctx.mockUrl(p.backend));
      lines.push(...deployment(`${p.prefix}/${model}`, `${p.prefix}/${model}`, base, p.see, true));
    }
    for (const p of LITELLM_PERSONAS) {
      const base = apiBase(p, ctx.mockUrl(p.backend, p.persona));
      lines.push(...deployment(`${p.group}/${model}`, `${p.provider}/${model}`, base, p.see, true));
    }
  }
  const wildcard = "https://docs.litellm.ai/docs/wildcard_routing";
  for (const p of LITELLM_PROVIDERS) {
    const base = apiBase(p, ctx.mockUrl(p.backend));
    lines.push(...deployment(`${p.prefix}/*`, `${p.prefix}/*`, base, wildcard, false));
  }
  for (const p of LITELLM_PERSONAS) {
    const base = apiBase(p, ctx.mockUrl(p.backend, p.persona));
    lines.push(...deployment(`${p.group}/*`, `${p.provider}/*`, base, wildcard, false));
  }
  // The second target: one group per provider, used only when a request names it in
  // `fallbacks`, so it changes nothing for other requests.
  const second = ctx.fallbackMockUrl;
  for (const p of second ? LITELLM_PROVIDERS : []) {
    const base = apiBase(p, second?.(p.backend) ?? "");
    const group = litellmFallbackGroup(p.prefix);
    lines.push(
      ...deployment(
        group,
        `${p.prefix}/${RECIPE_MODEL}`,
        base,
        "https://docs.litellm.ai/docs/proxy/client_side_fallbacks",
        true,
      ),
    );
  }
  lines.push(
    cited("litellm_settings:", CONFIGS),
    cited(
      "  drop_params: false",
      "https://docs.litellm.ai/docs/completion/drop_params",
      "LiteLLM's default, written out: what it drops it must drop on its own",
    ),
  );
  // Each cell is judged on its own: with one deployment per group, LiteLLM's router cools
  // the deployment down for 5 s after a non-retryable upstream error (a probe's staged 4xx),
  // and answers every request of the group in that window 429 "No deployments available",
  // so one cell's staged error decided the verdicts of the cells sent after it.
  lines.push(
    cited("router_settings:", CONFIGS),
    cited(
      "  disable_cooldowns: true",
      `${SRC}/router_utils/cooldown_handlers.py (a deployment cooled down 5 s after a non-retryable error)`,
      "each cell is judged on its own: a cooldown made one cell's staged error decide the next cells' answers (429 No deployments available)",
    ),
  );
  return lines;
}
