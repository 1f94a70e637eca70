/**
 * Portkey AI gateway (`@portkey-ai/gateway`), run from npm with Node.
 *
 * Quirks found running 1.15.2 as a new user would (see docs/gateways.md):
 * - the port comes only from `--port=N` (it ignores `PORT`);
 * - it listens on every interface; we confine it to 127.0.0.1 with a `--require` preload
 *   that rewrites `listen()` to loopback (`preload/loopback-listen.cjs`);
 * - a plain `npm install` resolves `@hono/node-server` 1.19.x, with which every stream
 *   that Portkey passes through fails with HTTP 500 after reaching the upstream (Portkey
 *   appends to the immutable headers of the upstream Response: `TypeError: immutable`).
 *   The `locked` variant pins the versions of the gateway's own lockfile via overrides.
 *
 * Routing is per request, by headers: `x-portkey-provider` picks the provider,
 * `x-portkey-custom-host` points it at the mock, the provider key rides in `Authorization`.
 * Portkey calls `customHost || provider.getBaseURL()` followed by the provider's endpoint
 * path, so the custom host is the mock standing in for the provider's own base URL with that
 * URL's path: each row names the URL it stands for (`upstream`) and the endpoint Portkey
 * appends, both read in the installed source.
 * @see https://portkey.ai/docs/api-reference/inference-api/headers
 * @see https://portkey.ai/docs/product/ai-gateway/custom-hosts
 */

import { fileURLToPath } from "node:url";
import type { Dialect } from "../../dialects/dialect.ts";
import { dialectModule } from "../../dialects/registry.ts";
import type {
  FallbackSupport,
  GatewayAdapter,
  GatewayRoute,
  GatewaySpec,
  LaunchContext,
  RouteStatus,
} from "../adapter.ts";
import { type Cited, type CitedConfig, cited, plainArgs, plainRecord } from "../cited.ts";
import { npmAdapter } from "../npm-adapter.ts";
import { type PortkeyHostRow, portkeyCustomHost, SRC } from "./portkey-hosts.ts";

export { portkeyCustomHost, portkeyForwardedPath } from "./portkey-hosts.ts";

const PRELOAD = fileURLToPath(new URL("../preload/loopback-listen.cjs", import.meta.url));
const HEADERS_DOC = "https://portkey.ai/docs/api-reference/inference-api/headers";

/** The installed source the rows below were read in (minified; the original file named). */

interface PortkeyRouteRow {
  id: string;
  client: GatewayRoute["client"];
  backend: Dialect;
  ingressPath: string;
  /** `x-portkey-provider` value. */
  provider: string;
  upstream: PortkeyHostRow["upstream"];
  endpoint: PortkeyHostRow["endpoint"];
  status: RouteStatus;
  /** Streaming status with the plain install; the `locked` variant streams where `status` works. */
  plainStream: RouteStatus;
  notes?: string;
  /** The strict provider (mock persona) the custom host plays. */
  persona?: string;
  /** Where the provider's behaviour is documented. */
  see: string;
}

/** Found offline against the mock with 1.15.2 (`gatecheck gateways doctor portkey`). */
export const PORTKEY_ROUTES = [
  {
    id: "openai-chat->openai-chat",
    client: "openai-chat",
    backend: "openai-chat",
    ingressPath: "/v1/chat/completions",
    provider: "openai",
    upstream: "openai",
    endpoint: "chat",
    status: "works",
    plainStream: "fails",
    see: "https://portkey.ai/docs/integrations/llms/openai",
  },
  {
    id: "openai-chat->anthropic-messages",
    client: "openai-chat",
    backend: "anthropic-messages",
    ingressPath: "/v1/chat/completions",
    provider: "anthropic",
    upstream: "anthropic",
    endpoint: "messages",
    status: "works",
    plainStream: "fails",
    notes: "the key from Authorization is forwarded as x-api-key",
    see: "https://portkey.ai/docs/integrations/llms/anthropic",
  },
  {
    id: "openai-chat->gemini",
    client: "openai-chat",
    backend: "gemini",
    ingressPath: "/v1/chat/completions",
    provider: "google",
    upstream: "google",
    endpoint: "gemini",
    status: "works",
    plainStream: "works",
    notes:
      "the key travels in the ?key= query; streams are rebuilt by Portkey, so they work even with the plain install",
    see: "https://portkey.ai/docs/integrations/llms/gemini",
  },
  {
    id: "openai-chat->openai-chat:ollama",
    client: "openai-chat",
    backend: "openai-chat",
    ingressPath: "/v1/chat/completions",
    provider: "ollama",
    upstream: "ollama",
    endpoint: "ollama",
    status: "works",
    plainStream: "fails",
    notes:
      "Portkey's ollama provider calls Ollama's OpenAI-compatible /v1/chat/completions, never the native /api/chat",
    see: "https://portkey.ai/docs/integrations/llms/ollama",
  },
  {
    id: "anthropic-messages->anthropic-messages",
    client: "anthropic-messages",
    backend: "anthropic-messages",
    ingressPath: "/v1/messages",
    provider: "anthropic",
    upstream: "anthropic",
    endpoint: "messages",
    status: "works",
    plainStream: "fails",
    notes: "the key must ride in Authorization; a client x-api-key is not what Portkey forwards",
    see: "https://portkey.ai/docs/integrations/llms/anthropic",
  },
  {
    id: "anthropic-messages->openai-chat",
    client: "anthropic-messages",
    backend: "openai-chat",
    ingressPath: "/v1/messages",
    provider: "openai",
    upstream: "openai",
    endpoint: "chat",
    status: "fails",
    plainStream: "fails",
    notes: 'rejected before the upstream: HTTP 500 "messages is not supported by openai"',
    see: "https://portkey.ai/docs/api-reference/inference-api/anthropic-transform",
  },
  {
    id: "openai-responses->openai-responses",
    client: "openai-responses",
    backend: "openai-responses",
    ingressPath: "/v1/responses",
    provider: "openai",
    upstream: "openai",
    endpoint: "responses",
    status: "works",
    plainStream: "fails",
    see: "https://portkey.ai/docs/product/ai-gateway/responses-api",
  },
  {
    id: "openai-responses->anthropic-messages",
    client: "openai-responses",
    backend: "anthropic-messages",
    ingressPath: "/v1/responses",
    provider: "anthropic",
    upstream: "anthropic",
    endpoint: "messages",
    status: "fails",
    plainStream: "fails",
    notes:
      'rejected before the upstream: HTTP 500 "createModelResponse is not supported by anthropic"',
    see: "https://portkey.ai/docs/product/ai-gateway/responses-api",
  },
  // Strict providers: Portkey's own DeepSeek provider, and Anthropic's checks.
  {
    id: "openai-chat->openai-chat@deepseek",
    client: "openai-chat",
    backend: "openai-chat",
    ingressPath: "/v1/chat/completions",
    provider: "deepseek",
    upstream: "deepseek",
    endpoint: "deepseek",
    status: "works",
    plainStream: "fails",
    persona: "deepseek",
    see: "https://portkey.ai/docs/integrations/llms/deepseek",
  },
  {
    id: "openai-chat->anthropic-messages@anthropic",
    client: "openai-chat",
    backend: "anthropic-messages",
    ingressPath: "/v1/chat/completions",
    provider: "anthropic",
    upstream: "anthropic",
    endpoint: "messages",
    status: "works",
    plainStream: "fails",
    persona: "anthropic",
    see: "https://portkey.ai/docs/integrations/llms/anthropic",
  },
  // DeepSeek's Anthropic-compatible API: the anthropic provider with DeepSeek's mount as its
  // custom host (mock-upstream/personas/mounts.ts).
  {
    id: "anthropic-messages->anthropic-messages@deepseek",
    client: "anthropic-messages",
    backend: "anthropic-messages",
    ingressPath: "/v1/messages",
    provider: "anthropic",
    upstream: "deepseek-anthropic",
    endpoint: "messages",
    status: "works",
    plainStream: "fails",
    persona: "deepseek",
    see: "https://api-docs.deepseek.com/guides/anthropic_api",
  },
] as const satisfies readonly PortkeyRouteRow[];

/** The headers that configure Portkey for a route, each cited. */
export function portkeyRouteHeaders(
  row: PortkeyRouteRow,
  ctx: { mockUrl(backend: Dialect, persona?: string): string; apiKey: string },
): Record<string, Cited> {
  return {
    "x-portkey-provider": cited(row.provider, row.see),
    "x-portkey-custom-host": portkeyCustomHost(row, ctx.mockUrl(row.backend, row.persona)),
    authorization: cited(`Bearer ${ctx.apiKey}`, HEADERS_DOC),
  };
}

function portkeyRoutes(spec: GatewaySpec): GatewayRoute[] {
  const locked = spec.variant === "locked";
  return PORTKEY_ROUTES.map((row: PortkeyRouteRow) => {
    const route: GatewayRoute = {
      id: row.id,
      client: row.client,
      backend: row.backend,
      ingressPath: row.ingressPath,
      headers: (ctx) => ({
        ...plainRecord(portkeyRouteHeaders(row, ctx)),
        ...dialectModule(row.client).requiredHeaders,
      }),
      model: (backendModel) => backendModel,
      native: row.client === row.backend && !row.persona,
      status: row.status,
      streamStatus: locked ? row.status : row.plainStream,
    };
    if (row.notes) route.notes = row.notes;
    if (row.persona) route.persona = row.persona;
    return route;
  });
}

/** The row behind a route id (fallback targets need its provider and custom host). */
function portkeyRow(id: string): PortkeyRouteRow {
  const row = PORTKEY_ROUTES.find((r) => r.id === id);
  if (!row) throw new Error(`portkey: no route ${id}`);
  return row;
}

/**
 * Fallback per request: `x-portkey-config` with `strategy.mode: "fallback"` and two targets
 * that differ only in `custom_host`. No `on_status_codes`: Portkey's default is to move on
 * every non-2xx (its FALLBACK loop stops at the first `response.ok` unless on_status_codes
 * is set), which the probes measure.
 * @see https://portkey.ai/docs/product/ai-gateway/fallbacks
 */
export const PORTKEY_FALLBACK: FallbackSupport = {
  supported: true,
  onStatuses: "any-non-2xx",
  how: 'x-portkey-config {"strategy":{"mode":"fallback"},"targets":[first, second]}, each target {provider, custom_host, api_key}',
  see: "https://portkey.ai/docs/product/ai-gateway/fallbacks",
  headers: (route, targets) => {
    const row = portkeyRow(route.id);
    const target = (url: string) => ({
      provider: row.provider,
      custom_host: portkeyCustomHost(row, url).value,
      api_key: targets.apiKey,
    });
    const config = {
      strategy: { mode: "fallback" },
      targets: [target(targets.primaryUrl(row.backend)), target(targets.secondaryUrl(row.backend))],
    };
    return {
      "x-portkey-config": JSON.stringify(config),
      ...dialectModule(row.client).requiredHeaders,
    };
  },
};

/** A placeholder for the key a client sends, in the cited headers of `gateways list`-like views. */
const CLIENT_KEY = "<the client's provider key>";

export function portkeyCitedConfig(ctx: Pick<LaunchContext, "port" | "mockUrl">): CitedConfig {
  return {
    files: {},
    args: [
      cited(`--port=${ctx.port}`, `${SRC} (start-server.ts: the port only from --port=, not PORT)`),
      cited(
        "--headless",
        `${SRC} (start-server.ts: --headless serves no UI routes)`,
        "no console UI: nothing but the gateway's API is served",
      ),
    ],
    env: {},
    routeHeaders: Object.fromEntries(
      PORTKEY_ROUTES.map((row: PortkeyRouteRow) => [
        row.id,
        portkeyRouteHeaders(row, { mockUrl: ctx.mockUrl, apiKey: CLIENT_KEY }),
      ]),
    ),
  };
}

export const portkey: GatewayAdapter = {
  ...npmAdapter({
    name: "portkey",
    description: "Portkey AI gateway (npm), routed per request by x-portkey-* headers",
    packageName: "@portkey-ai/gateway",
    defaultVersion: "1.15.2",
    variants: {
      locked: {
        description:
          "dependencies pinned to the gateway's own lockfile (@hono/node-server 1.13.5, hono 4.9.7)",
        overrides: { "@hono/node-server": "1.13.5", hono: "4.9.7" },
      },
    },
    watch: ["@hono/node-server", "hono"],
    // Portkey has no config file: all routing arrives in request headers.
    writeConfig: async () => [],
    command: (ctx, packageDir) => ({
      command: process.execPath,
      args: [
        "--require",
        PRELOAD,
        `${packageDir}/build/start-server.js`,
        ...plainArgs(portkeyCitedConfig(ctx).args),
      ],
    }),
    routes: portkeyRoutes,
  }),
  fallback: PORTKEY_FALLBACK,
  citedConfig: portkeyCitedConfig,
};
