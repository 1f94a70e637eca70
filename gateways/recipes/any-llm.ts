/**
 * any-llm gateway (mozilla-ai, PyPI `any-llm-sdk[gateway]`; 1.14.0 is the last release that
 * bundles the gateway), installed into its own virtualenv from a committed hash lock and
 * started as `any-llm-gateway serve --config any-llm.yaml --host 127.0.0.1 --port N`.
 * Providers with `api_base` at the mock; a SQLite database in the work folder, seeded before
 * the start with one user and the client key (`gateways/python/any-llm-seed.py`), so the
 * gateway's random bootstrap key is never printed into a log we keep. Clients name
 * `<provider>:<model>`.
 * @see https://github.com/mozilla-ai/any-llm/blob/main/docs/gateway/configuration.md
 */
import { join } from "node:path";
import type { ClientDialect, Dialect } from "../../dialects/dialect.ts";
import type { GatewayRoute, LaunchContext } from "../adapter.ts";
import { REPO_ROOT } from "../cache.ts";
import {
  type Cited,
  type CitedConfig,
  cited,
  plainArgs,
  plainRecord,
  renderFile,
  writeCitedFiles,
} from "../cited.ts";
import { venvBin, venvPython } from "../pip-install.ts";
import { PYTHON_READY_TIMEOUT_MS, pythonAdapter } from "../python-adapter.ts";
import type { PythonGateway } from "../python-lock.ts";
import { q, RECIPE_PROVIDER_KEY, type RecipeRouteRow, recipeRoutes } from "./recipe-kit.ts";

const SRC = "any-llm-sdk@1.14.0 site-packages/any_llm";
const CONFIG_DOC = "https://github.com/mozilla-ai/any-llm/blob/main/docs/gateway/configuration.md";
const CONFIG_SRC = `${SRC}/gateway/core/config.py (GatewayConfig)`;
/** Where any-llm hands `api_base` to the provider's client, and what that client appends. */
interface ApiBaseRule {
  base(m: string): string;
  ref: string;
  choice: string;
}

export const ANY_LLM_MASTER_KEY = "gatecheck-any-llm-master-key";

/**
 * The key clients send: any-llm keys are `gw-` and at least 50 characters; this one is
 * seeded into the database before the start.
 */
export const ANY_LLM_CLIENT_KEY = "gw-gatecheck-any-llm-client-key-000000000000000000000000";
const ANY_LLM_USER = "gatecheck";

export const ANY_LLM_PYTHON: PythonGateway = {
  name: "any-llm",
  distribution: "any-llm-sdk",
  pins: {
    "1.14.0": {
      // The gemini and ollama extras bring the SDKs those providers call through.
      requirement: "any-llm-sdk[gateway,gemini,ollama]==1.14.0",
      resolvedAsOf: "2026-05-08T00:00:00Z",
      python: "3.11",
    },
  },
};

export const ANY_LLM_PROVIDERS = [
  {
    name: "openai",
    backend: "openai-chat",
    base: (m: string) => `${m}/v1`,
    ref: `${SRC}/providers/openai/openai.py (API_BASE https://api.openai.com/v1, the OpenAI client's base_url)`,
    choice:
      "OpenAI's https://api.openai.com/v1, any-llm's own default; the client appends /chat/completions",
  },
  {
    name: "anthropic",
    backend: "anthropic-messages",
    base: (m: string) => m,
    ref: `${SRC}/providers/anthropic (AsyncAnthropic(base_url=api_base), which appends /v1/messages)`,
    choice: "Anthropic's https://api.anthropic.com, the Anthropic client's default base URL",
  },
  {
    name: "gemini",
    backend: "gemini",
    base: (m: string) => m,
    ref: `${SRC}/providers/gemini/gemini.py (_init_client: google-genai HttpOptions(base_url=api_base))`,
    choice:
      "Google's https://generativelanguage.googleapis.com: google-genai appends /v1beta/models/<model>:<method>",
  },
  {
    name: "ollama",
    backend: "ollama",
    base: (m: string) => m,
    ref: `${SRC}/providers/ollama/ollama.py (_init_client: AsyncClient(host=api_base))`,
    choice: "Ollama's http://localhost:11434: the ollama client appends /api/chat",
  },
] as const satisfies readonly (ApiBaseRule & { name: string; backend: Dialect })[];

/**
 * Strict providers (mock personas) through any-llm's own provider types for them.
 * @see https://mozilla-ai.github.io/any-llm/providers/
 */
export const ANY_LLM_PERSONAS = [
  {
    name: "deepseek",
    persona: "deepseek",
    backend: "openai-chat",
    base: (m: string) => `${m}/v1`,
    ref: `${SRC}/providers/deepseek/deepseek.py (API_BASE https://api.deepseek.com, an OpenAI client)`,
    choice:
      "DeepSeek's documented OpenAI-compatible https://api.deepseek.com/v1 (https://api-docs.deepseek.com/), not any-llm's default bare host: DeepSeek serves both, and the lens takes /v1/chat/completions only",
  },
  {
    name: "moonshot",
    persona: "moonshot",
    backend: "openai-chat",
    base: (m: string) => `${m}/v1`,
    ref: `${SRC}/providers/moonshot/moonshot.py (API_BASE https://api.moonshot.ai/v1)`,
    choice: "Moonshot's https://api.moonshot.ai/v1, any-llm's own default",
  },
] as const satisfies readonly (ApiBaseRule & { name: string; persona: string; backend: Dialect })[];

/**
 * The deployment we measure: the provider SDKs' own retries off. any-llm hands a provider's
 * `client_args` to that provider's client (`get_provider_kwargs` in
 * `any_llm/gateway/api/routes/chat.py`, used by its Chat and Messages routes, then
 * `AnyLLM.create(..., **client_args)` into `AsyncOpenAI(...)` / `AsyncAnthropic(...)`).
 * Left at their default (2 retries), those SDKs sleep out a 429's `Retry-After` when it is
 * at most 60 s (`_calculate_retry_timeout`, openai 2.36.0 and anthropic 0.100.0): the 429
 * probe's 30 s, twice, so the gateway answers after about 60 s, each request holding one of
 * its 15 database connections all along, while the sweep's client gives up at 20 s. With
 * `max_retries: 0` an upstream failure reaches any-llm's own handling at once. The other
 * providers' clients (google-genai, ollama) take no such argument.
 * @see https://github.com/openai/openai-python/blob/main/src/openai/_base_client.py
 */
export const ANY_LLM_CLIENT_ARGS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  openai: { max_retries: 0 },
  anthropic: { max_retries: 0 },
  deepseek: { max_retries: 0 },
  moonshot: { max_retries: 0 },
};

export function anyLlmConfigLines(ctx: Pick<LaunchContext, "mockUrl" | "workdir">): Cited[] {
  const lines: Cited[] = [
    cited(
      `database_url: ${q(`sqlite:///${ctx.workdir}/any-llm.db`)}`,
      CONFIG_SRC,
      "SQLite, its default kind, in the run folder",
    ),
    cited(
      `master_key: ${q(ANY_LLM_MASTER_KEY)}`,
      CONFIG_DOC,
      "a fixed fake key: management endpoints need one, and a real one must never be written",
    ),
    // The first-start key is printed into the log; the sweep seeds its own instead.
    cited(
      "bootstrap_api_key: false",
      CONFIG_SRC,
      "its first-use key would be printed into the log we keep; the sweep seeds its own (any-llm-seed.py)",
    ),
    cited("providers:", CONFIG_DOC),
  ];
  for (const p of [...ANY_LLM_PROVIDERS, ...ANY_LLM_PERSONAS]) {
    const persona = "persona" in p ? p.persona : undefined;
    lines.push(
      cited(`  ${p.name}:`, "https://mozilla-ai.github.io/any-llm/providers/"),
      cited(
        `    api_key: ${q(RECIPE_PROVIDER_KEY)}`,
        CONFIG_DOC,
        "a fake gatecheck key; the client's own must never reach the upstream",
      ),
      cited(`    api_base: ${q(p.base(ctx.mockUrl(p.backend, persona)))}`, p.ref, p.choice),
    );
    const args = Object.entries(ANY_LLM_CLIENT_ARGS[p.name] ?? {});
    if (args.length > 0) {
      const ref = `${SRC}/gateway/api/routes/chat.py (get_provider_kwargs: client_args to the provider's client)`;
      lines.push(
        cited("    client_args:", ref),
        ...args.map(([k, v]) =>
          cited(
            `      ${k}: ${JSON.stringify(v)}`,
            "https://github.com/openai/openai-python/blob/main/src/openai/_base_client.py",
            "the SDK's own retries off, so an upstream failure reaches any-llm at once (ANY_LLM_CLIENT_ARGS)",
          ),
        ),
      );
    }
  }
  return lines;
}

export function anyLlmConfigYaml(ctx: Pick<LaunchContext, "mockUrl" | "workdir">): string {
  return renderFile({ lines: anyLlmConfigLines(ctx) });
}

const CLI_SRC = `${SRC}/gateway/cli.py (serve --config --host --port)`;

/** any-llm.yaml, the serve flags and environment, each cited. */
export function anyLlmCitedConfig(ctx: LaunchContext): CitedConfig {
  return {
    files: { "any-llm.yaml": { lines: anyLlmConfigLines(ctx) } },
    args: [
      cited("serve", CLI_SRC),
      cited("--config", CLI_SRC),
      cited(`${ctx.workdir}/any-llm.yaml`, CLI_SRC),
      cited("--host", CLI_SRC),
      cited("127.0.0.1", CLI_SRC, "loopback only; its default is 0.0.0.0"),
      cited("--port", CLI_SRC),
      cited(String(ctx.port), CLI_SRC),
    ],
    env: {
      PYTHONUNBUFFERED: cited(
        "1",
        "https://docs.python.org/3/using/cmdline.html#envvar-PYTHONUNBUFFERED",
        "a crash's last lines reach gateway.log",
      ),
    },
  };
}

const INGRESS: Partial<Record<ClientDialect, string>> = {
  "openai-chat": "/v1/chat/completions",
  "anthropic-messages": "/v1/messages",
};

const ROWS: RecipeRouteRow[] = (Object.keys(INGRESS) as ClientDialect[]).flatMap((client) =>
  ANY_LLM_PROVIDERS.map((p) => ({
    id: `${client}->${p.backend}`,
    client,
    backend: p.backend,
    ingressPath: INGRESS[client] ?? "",
    model: (m: string) => `${p.name}:${m}`,
    status: "works" as const,
  })),
);

/** DeepSeek from both ingresses (Claude Code users point Messages at it), Moonshot from Chat. */
const PERSONA_ROWS: RecipeRouteRow[] = (
  [
    ["openai-chat", ANY_LLM_PERSONAS[0]],
    ["anthropic-messages", ANY_LLM_PERSONAS[0]],
    ["openai-chat", ANY_LLM_PERSONAS[1]],
  ] as const
).map(([client, p]) => ({
  id: `${client}->${p.backend}@${p.persona}`,
  client,
  backend: p.backend,
  ingressPath: INGRESS[client] ?? "",
  model: (m: string) => `${p.name}:${m}`,
  persona: p.persona,
  status: "works" as const,
}));

/** Routes send the seeded key, never the sweep's route key, which any-llm does not know. */
function anyLlmRoutes(): GatewayRoute[] {
  return recipeRoutes([...ROWS, ...PERSONA_ROWS]).map((route) => ({
    ...route,
    headers: (ctx) => route.headers({ ...ctx, apiKey: ANY_LLM_CLIENT_KEY }),
  }));
}

export const anyLlm = pythonAdapter({
  python: ANY_LLM_PYTHON,
  description: "any-llm gateway (PyPI any-llm-sdk[gateway], hash-locked virtualenv)",
  defaultVersion: "1.14.0",
  writeConfig: (ctx) => writeCitedFiles(ctx.workdir, anyLlmCitedConfig(ctx)),
  citedConfig: anyLlmCitedConfig,
  prepare: (ctx, dir) => ({
    command: venvPython(dir),
    args: [
      join(REPO_ROOT, "gateways", "python", "any-llm-seed.py"),
      `sqlite:///${ctx.workdir}/any-llm.db`,
      ANY_LLM_USER,
      ANY_LLM_CLIENT_KEY,
    ],
  }),
  command: (ctx, dir) => ({
    command: venvBin(dir, "any-llm-gateway"),
    args: plainArgs(anyLlmCitedConfig(ctx).args),
    env: plainRecord(anyLlmCitedConfig(ctx).env),
    readyPath: "/health/liveness",
    readyTimeoutMs: PYTHON_READY_TIMEOUT_MS,
  }),
  routes: anyLlmRoutes,
});
