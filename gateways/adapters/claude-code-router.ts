/**
 * claude-code-router (`@musistudio/claude-code-router`), run from npm with Node.
 *
 * Config lives in `$HOME/.claude-code-router/config.json`; we point HOME at the run's
 * work folder. `ccr start` runs the server in the foreground. It binds 127.0.0.1 unless
 * the config sets HOST together with an APIKEY; we set HOST to 127.0.0.1 anyway. The
 * client picks a provider with `"model": "<provider>,<model>"`, which CCR splits only on
 * paths ending in `/v1/messages`; its `/v1/chat/completions` and `/v1/responses` routes
 * exist but answer 404 "Provider 'undefined' not found" (2.0.0).
 *
 * One provider per backend flavour, each with the mock as its `api_base_url` (CCR posts
 * to that URL as given; the gemini transformer appends `<model>:generateContent`).
 * @see https://github.com/musistudio/claude-code-router#configuration
 */

import { join } from "node:path";
import type { Dialect } from "../../dialects/dialect.ts";
import { authHeaders } from "../../dialects/routes.ts";
import type {
  FallbackSupport,
  GatewayAdapter,
  GatewayRoute,
  LaunchContext,
  RouteStatus,
} from "../adapter.ts";
import {
  type CitedConfig,
  type CitedJson,
  cited,
  plainArgs,
  plainJson,
  writeCitedFiles,
} from "../cited.ts";
import { npmAdapter } from "../npm-adapter.ts";

/** Where the config keys are documented and read (2.0.0 bundles @musistudio/llms 1.0.51). */
const README = "https://github.com/musistudio/claude-code-router#configuration";
const SRC = "@musistudio/claude-code-router@2.0.0 dist/cli.js";
const PROVIDERS_DOC = "https://github.com/musistudio/claude-code-router#providers";
const TRANSFORMERS_DOC = "https://github.com/musistudio/claude-code-router#transformers";
/**
 * DeepSeek documents base_url https://api.deepseek.com and, "for OpenAI compatibility",
 * https://api.deepseek.com/v1; CCR's README example writes the first, ending in
 * /chat/completions. We write the /v1 form: the lens expects /v1/chat/completions on an
 * OpenAI Chat backend, and the README form measured 12 mangled-path (wrong-route) cells of 12
 * on both DeepSeek routes (docs/gateways.md, "Cited configuration").
 */
const DEEPSEEK_V1 =
  "DeepSeek's documented OpenAI-compatible base_url https://api.deepseek.com/v1 plus /chat/completions (CCR posts to api_base_url as given); the README's example omits /v1, which today's lens judges a wrong route";
const URL_AS_GIVEN = `${SRC} (bundled @musistudio/llms: the request goes to the transformer's url || new URL(provider.api_base_url))`;

/** The provider key written into CCR's config (what CCR sends upstream, never the client's). */
export const CCR_PROVIDER_KEY = "sk-gatecheck-ccr-provider-0000000000";

interface CcrProviderRow {
  /** Provider name in config.json and in the client's `"<provider>,<model>"`. */
  name: string;
  backend: Dialect;
  /** Built from the mock base URL: the full endpoint (or prefix, for gemini). */
  apiBase(mockUrl: string): string;
  transformer?: string;
  /** The strict provider (mock persona) this provider's listener plays. */
  persona?: string;
  /** Where a user's `api_base_url` for this provider is written so. */
  baseRef: string;
  /** Where docs leave the URL open, which form this is and why. */
  baseChoice?: string;
  see: string;
}

/** Providers written into config.json, one per backend flavour. */
export const CCR_PROVIDERS = [
  {
    name: "gc-openai",
    backend: "openai-chat",
    apiBase: (m: string) => `${m}/v1/chat/completions`,
    baseRef: README,
    baseChoice:
      'the README\'s openai example, "https://api.openai.com/v1/chat/completions": the full endpoint, posted to as given',
    see: PROVIDERS_DOC,
  },
  {
    name: "gc-deepseek",
    backend: "openai-chat",
    apiBase: (m: string) => `${m}/v1/chat/completions`,
    transformer: "deepseek",
    baseRef: "https://api-docs.deepseek.com/",
    baseChoice: DEEPSEEK_V1,
    see: TRANSFORMERS_DOC,
  },
  {
    name: "gc-gemini",
    backend: "gemini",
    apiBase: (m: string) => `${m}/v1beta/models/`,
    transformer: "gemini",
    baseRef: README,
    baseChoice:
      'the README\'s gemini example, "https://generativelanguage.googleapis.com/v1beta/models/"; the gemini transformer appends <model>:generateContent',
    see: TRANSFORMERS_DOC,
  },
  {
    name: "gc-anthropic",
    backend: "anthropic-messages",
    apiBase: (m: string) => `${m}/v1/messages`,
    transformer: "Anthropic",
    baseRef: URL_AS_GIVEN,
    baseChoice:
      "the README has no Anthropic example; api_base_url is the full endpoint (README: Providers), so Anthropic's https://api.anthropic.com/v1/messages",
    see: TRANSFORMERS_DOC,
  },
  // Strict providers: the same transformers at listeners that check as DeepSeek and Anthropic do.
  {
    name: "gc-deepseek-strict",
    backend: "openai-chat",
    apiBase: (m: string) => `${m}/v1/chat/completions`,
    transformer: "deepseek",
    persona: "deepseek",
    baseRef: "https://api-docs.deepseek.com/",
    baseChoice: DEEPSEEK_V1,
    see: TRANSFORMERS_DOC,
  },
  {
    name: "gc-anthropic-strict",
    backend: "anthropic-messages",
    apiBase: (m: string) => `${m}/v1/messages`,
    transformer: "Anthropic",
    persona: "anthropic",
    baseRef: URL_AS_GIVEN,
    baseChoice:
      "the README has no Anthropic example; api_base_url is the full endpoint (README: Providers), so Anthropic's https://api.anthropic.com/v1/messages",
    see: TRANSFORMERS_DOC,
  },
  // DeepSeek's Anthropic-compatible API, the way Claude Code users reach DeepSeek through CCR:
  // the Anthropic transformer at `<DeepSeek>/anthropic/v1/messages` (mock-upstream's mounts).
  {
    name: "gc-deepseek-anthropic",
    backend: "anthropic-messages",
    apiBase: (m: string) => `${m}/anthropic/v1/messages`,
    transformer: "Anthropic",
    persona: "deepseek",
    baseRef: "https://api-docs.deepseek.com/guides/anthropic_api",
    baseChoice:
      "DeepSeek's Anthropic base_url https://api.deepseek.com/anthropic plus /v1/messages: CCR posts to api_base_url as given (the full endpoint)",
    see: TRANSFORMERS_DOC,
  },
] as const satisfies readonly CcrProviderRow[];

type CcrProviderName = (typeof CCR_PROVIDERS)[number]["name"];

interface CcrRouteRow {
  id: string;
  client: GatewayRoute["client"];
  ingressPath: string;
  provider: CcrProviderName;
  status: RouteStatus;
  notes?: string;
}

/** Found offline against the mock with 2.0.0. */
export const CCR_ROUTES = [
  {
    id: "anthropic-messages->openai-chat",
    client: "anthropic-messages",
    ingressPath: "/v1/messages",
    provider: "gc-openai",
    status: "works",
  },
  {
    id: "anthropic-messages->openai-chat:deepseek",
    client: "anthropic-messages",
    ingressPath: "/v1/messages",
    provider: "gc-deepseek",
    status: "works",
    notes: "deepseek transformer: caps max_tokens at 8192, moves reasoning_content to thinking",
  },
  {
    id: "anthropic-messages->gemini",
    client: "anthropic-messages",
    ingressPath: "/v1/messages",
    provider: "gc-gemini",
    status: "works",
    notes: "the key travels as x-goog-api-key",
  },
  {
    id: "anthropic-messages->anthropic-messages",
    client: "anthropic-messages",
    ingressPath: "/v1/messages",
    provider: "gc-anthropic",
    status: "works",
  },
  {
    id: "anthropic-messages->openai-chat:deepseek@deepseek",
    client: "anthropic-messages",
    ingressPath: "/v1/messages",
    provider: "gc-deepseek-strict",
    status: "works",
  },
  {
    id: "anthropic-messages->anthropic-messages@anthropic",
    client: "anthropic-messages",
    ingressPath: "/v1/messages",
    provider: "gc-anthropic-strict",
    status: "works",
  },
  {
    id: "anthropic-messages->anthropic-messages@deepseek",
    client: "anthropic-messages",
    ingressPath: "/v1/messages",
    provider: "gc-deepseek-anthropic",
    status: "works",
  },
  {
    id: "openai-chat->openai-chat",
    client: "openai-chat",
    ingressPath: "/v1/chat/completions",
    provider: "gc-openai",
    status: "fails",
    notes: "404 Provider 'undefined' not found: CCR splits \"provider,model\" only on /v1/messages",
  },
  {
    id: "openai-responses->openai-chat",
    client: "openai-responses",
    ingressPath: "/v1/responses",
    provider: "gc-openai",
    status: "fails",
    notes: "404 Provider 'undefined' not found: CCR splits \"provider,model\" only on /v1/messages",
  },
] as const satisfies readonly CcrRouteRow[];

function providerRow(name: CcrProviderName): CcrProviderRow {
  const row = CCR_PROVIDERS.find((p) => p.name === name);
  if (!row) throw new Error(`claude-code-router: no provider ${name}`);
  return row;
}

/** The provider CCR falls back to: an OpenAI Chat provider on the second target's listener. */
export const CCR_FALLBACK_PROVIDER = "gc-fallback";

const FALLBACK_SRC = `${SRC} (router B6: "provider,model" is scenario default; fallback loop AN: fallback.<scenario> tried in order after any non-2xx)`;

/** The key CCR sends upstream, in every provider. */
const providerKey = () =>
  cited(
    CCR_PROVIDER_KEY,
    PROVIDERS_DOC,
    "a fake gatecheck key: the client's own must never reach the upstream",
  );
const modelList = (models: readonly string[]) =>
  cited(
    [...models],
    PROVIDERS_DOC,
    "the sweep's models; 2.0.0 does not check them (docs/gateways.md)",
  );

/**
 * With a second target, CCR's process-wide fallback chain: a failing provider (any non-2xx,
 * `provider_response_error`) is followed by `fallback.<scenario>`; a "provider,model" request
 * is scenario `default` (CCR 2.0.0 dist/cli.js, the router's `B6` and the fallback loop `AN`).
 */
function ccrFallback(ctx: Pick<LaunchContext, "fallbackMockUrl">, models: readonly string[]) {
  if (!ctx.fallbackMockUrl) return {};
  const model = models[0] ?? "gatecheck-model";
  const provider: CitedJson = {
    name: cited(CCR_FALLBACK_PROVIDER, PROVIDERS_DOC),
    api_base_url: cited(
      `${ctx.fallbackMockUrl("openai-chat")}/v1/chat/completions`,
      README,
      "the second target plays an OpenAI Chat provider, the README's openai form",
    ),
    api_key: providerKey(),
    models: modelList(models),
  };
  return {
    provider,
    fallback: { default: cited([`${CCR_FALLBACK_PROVIDER},${model}`], FALLBACK_SRC) } as CitedJson,
  };
}

/** config.json as CCR 2.0.0 reads it, each value cited. `models` must list the model the client names. */
export function ccrCitedConfig(
  ctx: Pick<LaunchContext, "port" | "mockUrl" | "fallbackMockUrl">,
  models: readonly string[],
): { [key: string]: CitedJson } {
  const second = ccrFallback(ctx, models);
  const providers: CitedJson[] = CCR_PROVIDERS.map((p: CcrProviderRow) => ({
    name: cited(p.name, PROVIDERS_DOC),
    api_base_url: cited(
      p.apiBase(ctx.mockUrl(p.backend, "persona" in p ? p.persona : undefined)),
      p.baseRef,
      p.baseChoice,
    ),
    api_key: providerKey(),
    models: modelList(models),
    ...(p.transformer && { transformer: { use: cited([p.transformer], p.see) } }),
  }));
  return {
    PORT: cited(ctx.port, `${SRC} (config.json PORT, default 3456)`),
    HOST: cited(
      "127.0.0.1",
      README,
      "loopback, which CCR forces anyway without APIKEY; set so the rig never depends on that",
    ),
    // CCR's request log copies every request, client secrets included, into HOME (the run
    // folder): 7.9 MB of verbatim keys in one default sweep. Off.
    LOG: cited(
      false,
      README,
      "off: its request log copied every client secret into the run folder",
    ),
    API_TIMEOUT_MS: cited(
      120_000,
      README,
      "above the sweep's client deadline (20 s), so CCR never times a request out first",
    ),
    NON_INTERACTIVE_MODE: cited(true, README, "it runs without a terminal"),
    Providers: second.provider ? [...providers, second.provider] : providers,
    Router: {
      default: cited(
        `gc-openai,${models[0] ?? "gatecheck-model"}`,
        "https://github.com/musistudio/claude-code-router#router",
        "required; every route names its provider in the model, so the default is never used",
      ),
    },
    ...(second.fallback && { fallback: second.fallback }),
  };
}

/** config.json as written (the cited values' plain form). */
export interface CcrConfigFile {
  Providers: { name: string; api_base_url: string; [key: string]: unknown }[];
  [key: string]: unknown;
}

/** config.json as CCR 2.0.0 reads it. `models` must list the model the client names. */
export function ccrConfig(
  ctx: Pick<LaunchContext, "port" | "mockUrl" | "fallbackMockUrl">,
  models: readonly string[],
): CcrConfigFile {
  return plainJson(ccrCitedConfig(ctx, models)) as CcrConfigFile;
}

/** Models the config declares. CCR 2.0.0 does not check them: other names pass as given. */
export const CCR_MODELS = [
  "gatecheck-model",
  "gpt-4o-mini",
  "claude-sonnet-4-5",
  "gemini-2.5-flash",
  "deepseek-chat",
];

export function ccrCitedFiles(ctx: LaunchContext): CitedConfig {
  return {
    files: { ".claude-code-router/config.json": { json: ccrCitedConfig(ctx, CCR_MODELS) } },
    args: [
      cited(
        "start",
        "https://github.com/musistudio/claude-code-router#3-running-claude-code-with-the-router",
        "ccr start runs the server in the foreground",
      ),
    ],
    env: {},
  };
}

async function writeCcrConfig(ctx: LaunchContext): Promise<string[]> {
  return writeCitedFiles(ctx.workdir, ccrCitedFiles(ctx));
}

function ccrRoutes(): GatewayRoute[] {
  return CCR_ROUTES.map((row: CcrRouteRow) => {
    const provider = providerRow(row.provider);
    const route: GatewayRoute = {
      id: row.id,
      client: row.client,
      backend: provider.backend,
      ingressPath: row.ingressPath,
      headers: (ctx): Record<string, string> => authHeaders(row.client, ctx.apiKey),
      model: (backendModel) => `${provider.name},${backendModel}`,
      native: row.client === provider.backend && !("persona" in provider),
      status: row.status,
    };
    if ("notes" in row) route.notes = row.notes;
    if ("persona" in provider) route.persona = provider.persona;
    return route;
  });
}

/**
 * CCR has fallback, process-wide: `fallback.default` lists "provider,model" entries tried in
 * order after any non-2xx from the provider. One list serves every provider, and the second
 * target is an OpenAI Chat provider, so fallback is judged on the route whose first target
 * speaks OpenAI Chat too (like with like).
 * @see https://github.com/musistudio/claude-code-router#fallback
 */
export const CCR_FALLBACK: FallbackSupport = {
  supported: true,
  onStatuses: "any-non-2xx",
  routes: ["anthropic-messages->openai-chat"],
  how: `config.json: provider ${CCR_FALLBACK_PROVIDER} on the second listener, "fallback": {"default": ["${CCR_FALLBACK_PROVIDER},<model>"]}`,
  see: "https://github.com/musistudio/claude-code-router#fallback",
};

export const claudeCodeRouter: GatewayAdapter = {
  ...npmAdapter({
    name: "claude-code-router",
    description:
      'claude-code-router (npm): Anthropic Messages in, provider picked by "provider,model"',
    packageName: "@musistudio/claude-code-router",
    defaultVersion: "2.0.0",
    writeConfig: writeCcrConfig,
    command: (_ctx, packageDir) => ({
      command: process.execPath,
      args: [join(packageDir, "dist", "cli.js"), ...plainArgs(ccrCitedFiles(_ctx).args)],
      readyPath: "/health",
    }),
    routes: ccrRoutes,
  }),
  fallback: CCR_FALLBACK,
  citedConfig: ccrCitedFiles,
};
