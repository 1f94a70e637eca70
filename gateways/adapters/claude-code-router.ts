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
import {
  CCR_PROVIDER_KEY,
  CCR_PROVIDERS,
  type CcrProviderName,
  type CcrProviderRow,
  PROVIDERS_DOC,
  README,
  SRC,
} from "./claude-code-router-providers.ts";

export { CCR_PROVIDER_KEY, CCR_PROVIDERS } from "./claude-code-router-providers.ts";

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
        "every README config names one; each route names its provider in the model, so it is never used",
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
