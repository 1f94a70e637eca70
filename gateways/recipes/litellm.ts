/**
 * LiteLLM proxy (PyPI `litellm[proxy]`), installed into its own virtualenv from a committed
 * hash lock, started as `litellm --config litellm.yaml --host 127.0.0.1 --port N`.
 * One wildcard deployment per provider, each pointed at the mock with `api_base`; the
 * client names `<provider>/<model>`. Offline: the bundled model cost map
 * (`LITELLM_LOCAL_MODEL_COST_MAP`), no database (no `DATABASE_URL`), no
 * master key (any client key passes; the deployment's own key goes upstream).
 * @see https://docs.litellm.ai/docs/proxy/configs
 * @see https://docs.litellm.ai/docs/providers/anthropic (api_base without /v1)
 * @see https://docs.litellm.ai/docs/anthropic_completion (/v1/messages ingress)
 * @see https://docs.litellm.ai/docs/response_api (/v1/responses ingress)
 */
import type { ClientDialect, Dialect } from "../../dialects/dialect.ts";
import type { FallbackSupport, LaunchContext } from "../adapter.ts";
import {
  type CitedConfig,
  cited,
  plainArgs,
  plainRecord,
  renderFile,
  writeCitedFiles,
} from "../cited.ts";
import { venvBin } from "../pip-install.ts";
import { PYTHON_READY_TIMEOUT_MS, pythonAdapter } from "../python-adapter.ts";
import type { PythonGateway } from "../python-lock.ts";
import {
  LITELLM_PERSONAS,
  LITELLM_PROVIDERS,
  litellmConfigLines,
  litellmFallbackGroup,
} from "./litellm-config.ts";
import { type RecipeRouteRow, recipeRoutes } from "./recipe-kit.ts";

export {
  LITELLM_MODEL_INFO,
  LITELLM_PERSONAS,
  LITELLM_PROVIDERS,
  litellmFallbackGroup,
} from "./litellm-config.ts";

export function litellmConfigYaml(
  ctx: Pick<LaunchContext, "mockUrl" | "fallbackMockUrl" | "models">,
): string {
  return renderFile({ lines: litellmConfigLines(ctx) });
}

const CLI = "https://docs.litellm.ai/docs/proxy/cli";

/** litellm.yaml, the proxy's flags and environment, each cited. */
export function litellmCitedConfig(ctx: LaunchContext): CitedConfig {
  return {
    files: { "litellm.yaml": { lines: litellmConfigLines(ctx) } },
    args: [
      cited("--config", CLI),
      cited(`${ctx.workdir}/litellm.yaml`, CLI),
      cited("--host", CLI),
      cited("127.0.0.1", CLI, "loopback only; its default is 0.0.0.0"),
      cited("--port", CLI),
      cited(String(ctx.port), CLI),
      cited("--num_workers", CLI),
      cited("1", CLI, "the default, written out: one process to start and stop"),
    ],
    env: {
      LITELLM_LOCAL_MODEL_COST_MAP: cited(
        "True",
        "litellm@1.96.2 site-packages/litellm/litellm_core_utils/get_model_cost_map.py (export LITELLM_LOCAL_MODEL_COST_MAP=True)",
        "offline: the bundled model cost map, never a download",
      ),
      // Unbuffered, so a crash's last lines reach gateway.log.
      PYTHONUNBUFFERED: cited(
        "1",
        "https://docs.python.org/3/using/cmdline.html#envvar-PYTHONUNBUFFERED",
        "a crash's last lines reach gateway.log",
      ),
    },
  };
}

/** LiteLLM 1.82.7 and 1.82.8 on PyPI carried a credential stealer; no lock may name them. */
export const LITELLM_COMPROMISED = {
  versions: ["1.82.7", "1.82.8"],
  see: "https://github.com/BerriAI/litellm/issues/24518",
} as const;

/**
 * FastAPI 0.140.7 (2026-07-27) removed `fastapi.dependencies.utils.get_flat_dependant`,
 * which LiteLLM's management routes import while declaring `fastapi>=0.136.3,<1.0`: with
 * the FastAPI a plain install resolves, `litellm --config` exits at import.
 */
const FASTAPI_BEFORE_0_140_7 = {
  spec: "fastapi<0.140.7",
  why: "litellm imports fastapi.dependencies.utils.get_flat_dependant, removed in FastAPI 0.140.7",
  see: "https://github.com/BerriAI/litellm/blob/v1.96.2/litellm/proxy/management_endpoints/management_v1/common.py",
} as const;

export const LITELLM_PYTHON: PythonGateway = {
  name: "litellm",
  distribution: "litellm",
  pins: {
    // The reference sweep's current release (kairo, August 2026).
    "1.96.2": {
      requirement: "litellm[proxy]==1.96.2",
      constraints: [FASTAPI_BEFORE_0_140_7],
      resolvedAsOf: "2026-08-18T00:00:00Z",
      python: "3.11",
    },
    // The reference matrix's column (its host's Python 3.9 capped the resolve there).
    "1.83.9": {
      requirement: "litellm[proxy]==1.83.9",
      resolvedAsOf: "2026-04-24T00:00:00Z",
      python: "3.11",
    },
    // The version of the reference's finding 001 (stop_reason on a tool call).
    "1.82.0": {
      requirement: "litellm[proxy]==1.82.0",
      resolvedAsOf: "2026-03-08T00:00:00Z",
      python: "3.11",
    },
  },
};

/**
 * Releases that send a Messages client's `deepseek/` requests to DeepSeek's own
 * Anthropic-compatible API (`<api_base without /v1>/anthropic/v1/messages`), untranslated;
 * earlier ones (1.83.9, 1.82.0: no `llms/deepseek/messages`) translate them to Chat.
 * @see https://github.com/BerriAI/litellm/blob/v1.96.2/litellm/llms/deepseek/messages/transformation.py
 */
const DEEPSEEK_MESSAGES_NATIVE: ReadonlySet<string> = new Set(["1.96.2"]);

/**
 * The (client, persona) routes run in the sweep: the routes a user of that provider takes.
 * `untranslatedIn`: the releases that forward this client's requests to the provider in the
 * client's own dialect (the provider's compatible endpoint for it) instead of the persona's.
 */
const PERSONA_ROUTES: readonly {
  client: ClientDialect;
  persona: (typeof LITELLM_PERSONAS)[number]["persona"];
  untranslatedIn?: ReadonlySet<string>;
}[] = [
  { client: "openai-chat", persona: "deepseek" },
  // Claude Code through LiteLLM to DeepSeek.
  { client: "anthropic-messages", persona: "deepseek", untranslatedIn: DEEPSEEK_MESSAGES_NATIVE },
  { client: "openai-chat", persona: "moonshot" },
  { client: "openai-chat", persona: "google" },
  { client: "openai-chat", persona: "anthropic" },
];

const INGRESS: Record<ClientDialect, string> = {
  "openai-chat": "/v1/chat/completions",
  "anthropic-messages": "/v1/messages",
  "openai-responses": "/v1/responses",
};

/**
 * The backend an `openai/` deployment is called in: Chat from Chat, Responses from
 * Responses, and Responses from Messages (LiteLLM routes `/v1/messages` for the `openai`
 * provider through its Responses adapter unless
 * `use_chat_completions_url_for_anthropic_messages` is set).
 * @see https://github.com/BerriAI/litellm/blob/v1.96.2/litellm/llms/anthropic/experimental_pass_through/messages/handler.py
 */
const OPENAI_BACKEND = {
  "openai-chat": "openai-chat",
  "openai-responses": "openai-responses",
  "anthropic-messages": "openai-responses",
} as const satisfies Record<ClientDialect, Dialect>;

/** Every ingress to every provider: 3 clients x 4 providers, found working against the mock. */
export const LITELLM_ROWS: RecipeRouteRow[] = (Object.keys(INGRESS) as ClientDialect[]).flatMap(
  (client) =>
    LITELLM_PROVIDERS.map((p) => {
      const backend = p.prefix === "openai" ? OPENAI_BACKEND[client] : p.backend;
      return {
        id: `${client}->${backend}`,
        client,
        backend,
        ingressPath: INGRESS[client],
        model: (m: string) => `${p.prefix}/${m}`,
        status: "works" as const,
        ...(p.prefix === "openai" &&
          backend !== client && {
            notes: "LiteLLM sends /v1/messages for an openai/ deployment to the Responses API",
          }),
      };
    }),
);

function litellmPersonaRows(version: string): RecipeRouteRow[] {
  return PERSONA_ROUTES.map(({ client, persona, untranslatedIn }) => {
    const p = LITELLM_PERSONAS.find((x) => x.persona === persona) ?? LITELLM_PERSONAS[0];
    return personaRow(client, p, untranslatedIn?.has(version) ? client : p.backend);
  });
}

function personaRow(
  client: ClientDialect,
  p: (typeof LITELLM_PERSONAS)[number],
  backend: Dialect,
): RecipeRouteRow {
  return {
    id: `${client}->${backend}@${p.persona}`,
    client,
    backend,
    ingressPath: INGRESS[client],
    model: (m: string) => `${p.group}/${m}`,
    persona: p.persona,
    status: "works" as const,
    ...(backend !== p.backend && {
      notes: "LiteLLM sends these to DeepSeek's Anthropic-compatible API, untranslated",
    }),
  };
}

/**
 * Client-side fallbacks: the request body names model groups to try after the first fails
 * (`"fallbacks": ["<group>"]`); the groups point at the second listener. LiteLLM does not
 * fall back on a 400 BadRequest (BerriAI/litellm#12503); 429 and 5xx move.
 * @see https://docs.litellm.ai/docs/proxy/client_side_fallbacks
 */
export const LITELLM_FALLBACK: FallbackSupport = {
  supported: true,
  onStatuses: [429, 500, 502, 503, 504],
  // Routes whose backend has a fallback group (the Responses backend has none).
  routes: LITELLM_ROWS.filter((r) => LITELLM_PROVIDERS.some((p) => p.backend === r.backend)).map(
    (r) => r.id,
  ),
  how: 'request body "fallbacks": ["gatecheck-fallback-<provider>"], a model group on the second listener',
  see: "https://docs.litellm.ai/docs/proxy/client_side_fallbacks",
  body: (route) => {
    const provider = LITELLM_PROVIDERS.find((p) => p.backend === route.backend);
    return provider ? { fallbacks: [litellmFallbackGroup(provider.prefix)] } : {};
  },
};

export const litellm = pythonAdapter({
  python: LITELLM_PYTHON,
  description: "LiteLLM proxy (PyPI litellm[proxy], hash-locked virtualenv)",
  defaultVersion: "1.96.2",
  writeConfig: (ctx) => writeCitedFiles(ctx.workdir, litellmCitedConfig(ctx)),
  command: (ctx, dir) => ({
    command: venvBin(dir, "litellm"),
    args: plainArgs(litellmCitedConfig(ctx).args),
    env: plainRecord(litellmCitedConfig(ctx).env),
    readyPath: "/health/liveliness",
    readyTimeoutMs: PYTHON_READY_TIMEOUT_MS,
  }),
  routes: (spec) => recipeRoutes([...LITELLM_ROWS, ...litellmPersonaRows(spec.version)]),
  fallback: LITELLM_FALLBACK,
  citedConfig: litellmCitedConfig,
  // It sleeps out the 429 probe's `Retry-After: 30` until the client gives up at 20 s and
  // holds nothing meanwhile: with 16 such requests beside its 4 slots (the 2 Dec default
  // sweep, load 6-12) its other 3,200 first attempts took 0.37 s each on average.
  timerSlotsPerSlot: 4,
  // After an upstream error its router sleeps a backoff before each of two retries (about
  // 1 to 5 s a request here), holding nothing: with cooldowns off (the config above) no
  // request's error changes another's answer, so those cells wait in the timer slots too.
  // @see https://github.com/BerriAI/litellm/blob/v1.96.2/litellm/router.py
  sleepsBeforeRetry: true,
});
