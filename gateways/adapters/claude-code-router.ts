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

import { mkdir, writeFile } from "node:fs/promises";
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
import { npmAdapter } from "../npm-adapter.ts";

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
  see: string;
}

/** Providers written into config.json, one per backend flavour. */
export const CCR_PROVIDERS = [
  {
    name: "gc-openai",
    backend: "openai-chat",
    apiBase: (m: string) => `${m}/v1/chat/completions`,
    see: "https://github.com/musistudio/claude-code-router#providers",
  },
  {
    name: "gc-deepseek",
    backend: "openai-chat",
    apiBase: (m: string) => `${m}/v1/chat/completions`,
    transformer: "deepseek",
    see: "https://github.com/musistudio/claude-code-router#transformers",
  },
  {
    name: "gc-gemini",
    backend: "gemini",
    apiBase: (m: string) => `${m}/v1beta/models/`,
    transformer: "gemini",
    see: "https://github.com/musistudio/claude-code-router#transformers",
  },
  {
    name: "gc-anthropic",
    backend: "anthropic-messages",
    apiBase: (m: string) => `${m}/v1/messages`,
    transformer: "Anthropic",
    see: "https://github.com/musistudio/llms (Anthropic transformer: passthrough to /v1/messages)",
  },
  // Strict providers: the same transformers at listeners that check as DeepSeek and Anthropic do.
  {
    name: "gc-deepseek-strict",
    backend: "openai-chat",
    apiBase: (m: string) => `${m}/v1/chat/completions`,
    transformer: "deepseek",
    persona: "deepseek",
    see: "https://github.com/musistudio/claude-code-router#transformers",
  },
  {
    name: "gc-anthropic-strict",
    backend: "anthropic-messages",
    apiBase: (m: string) => `${m}/v1/messages`,
    transformer: "Anthropic",
    persona: "anthropic",
    see: "https://github.com/musistudio/llms (Anthropic transformer: passthrough to /v1/messages)",
  },
  // DeepSeek's Anthropic-compatible API, the way Claude Code users reach DeepSeek through CCR:
  // the Anthropic transformer at `<DeepSeek>/anthropic/v1/messages` (mock-upstream's mounts).
  {
    name: "gc-deepseek-anthropic",
    backend: "anthropic-messages",
    apiBase: (m: string) => `${m}/anthropic/v1/messages`,
    transformer: "Anthropic",
    persona: "deepseek",
    see: "https://api-docs.deepseek.com/guides/anthropic_api",
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

/**
 * With a second target, CCR's process-wide fallback chain: a failing provider (any non-2xx,
 * `provider_response_error`) is followed by `fallback.<scenario>`; a "provider,model" request
 * is scenario `default` (CCR 2.0.0 dist/cli.js, the router's `B6` and the fallback loop `AN`).
 */
function ccrFallback(ctx: Pick<LaunchContext, "fallbackMockUrl">, models: readonly string[]) {
  if (!ctx.fallbackMockUrl) return {};
  const model = models[0] ?? "gatecheck-model";
  return {
    provider: {
      name: CCR_FALLBACK_PROVIDER,
      api_base_url: `${ctx.fallbackMockUrl("openai-chat")}/v1/chat/completions`,
      api_key: CCR_PROVIDER_KEY,
      models: [...models],
    },
    fallback: { default: [`${CCR_FALLBACK_PROVIDER},${model}`] },
  };
}

/** config.json as CCR 2.0.0 reads it. `models` must list the model the client names. */
export function ccrConfig(
  ctx: Pick<LaunchContext, "port" | "mockUrl" | "fallbackMockUrl">,
  models: readonly string[],
) {
  const second = ccrFallback(ctx, models);
  return {
    PORT: ctx.port,
    HOST: "127.0.0.1",
    // CCR's request log copies every request, client secrets included, into HOME (the run
    // folder): 7.9 MB of verbatim keys in one default sweep. Off.
    LOG: false,
    API_TIMEOUT_MS: 120_000,
    NON_INTERACTIVE_MODE: true,
    Providers: CCR_PROVIDERS.map((p: CcrProviderRow) => ({
      name: p.name,
      api_base_url: p.apiBase(ctx.mockUrl(p.backend, "persona" in p ? p.persona : undefined)),
      api_key: CCR_PROVIDER_KEY,
      models: [...models],
      ...(p.transformer && { transformer: { use: [p.transformer] } }),
    })).concat(second.provider ? [second.provider] : []),
    Router: { default: `gc-openai,${models[0] ?? "gatecheck-model"}` },
    ...(second.fallback && { fallback: second.fallback }),
  };
}

/** Models the config declares. CCR 2.0.0 does not check them: other names pass as given. */
export const CCR_MODELS = [
  "gatecheck-model",
  "gpt-4o-mini",
  "claude-sonnet-4-5",
  "gemini-2.5-flash",
  "deepseek-chat",
];

async function writeCcrConfig(ctx: LaunchContext): Promise<string[]> {
  const dir = join(ctx.workdir, ".claude-code-router");
  await mkdir(dir, { recursive: true });
  const file = join(dir, "config.json");
  await writeFile(file, `${JSON.stringify(ccrConfig(ctx, CCR_MODELS), null, 2)}\n`);
  return [file];
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
      args: [join(packageDir, "dist", "cli.js"), "start"],
      readyPath: "/health",
    }),
    routes: ccrRoutes,
  }),
  fallback: CCR_FALLBACK,
};
