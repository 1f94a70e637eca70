/**
 * NVIDIA NeMo Switchyard's server, from the PyPI wheel `nemo-switchyard` (hash-locked
 * virtualenv): the wheel carries the server of the `switchyard-server` crate as
 * `switchyard_rust.server.Server`, which binds loopback only; `gateways/python/
 * switchyard-serve.py` runs it until SIGTERM. (The crate 0.3.0 needs Rust 1.96.1; the
 * machine has 1.95.) The TOML names one LLM client per backend format (base_url at the mock,
 * key from an env variable we set to a fake key), one target per client, and one passthrough
 * route per target; the client names the route id as its model. Targets send the fixed
 * model `gatecheck-model`.
 * @see https://github.com/NVIDIA-NeMo/Switchyard/blob/main/crates/switchyard-server/README.md
 * @see https://github.com/NVIDIA-NeMo/Switchyard/blob/main/docs/reference/toml_schema.md
 */
import { join } from "node:path";
import type { Dialect } from "../../dialects/dialect.ts";
import type { LaunchContext } from "../adapter.ts";
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
import { venvPython } from "../pip-install.ts";
import { PYTHON_READY_TIMEOUT_MS, pythonAdapter } from "../python-adapter.ts";
import type { PythonGateway } from "../python-lock.ts";
import {
  q,
  RECIPE_MODEL,
  RECIPE_PROVIDER_KEY,
  type RecipeRouteRow,
  recipeRoutes,
} from "./recipe-kit.ts";

const SCHEMA = "https://github.com/NVIDIA-NeMo/Switchyard/blob/main/docs/reference/toml_schema.md";
/** The wheel's client appends its format's endpoint to `base_url` (strings of the native module). */
const APPENDS =
  "nemo-switchyard@0.3.0 switchyard_rust/_switchyard_rust.abi3.so (libsy-llm-client backend.rs: base_url + /chat/completions, /responses or /messages)";

const KEY_ENV = "GATECHECK_SWITCHYARD_API_KEY";

export const SWITCHYARD_PYTHON: PythonGateway = {
  name: "switchyard",
  distribution: "nemo-switchyard",
  pins: {
    // The reference sweep's version (kairo, August 2026); it needs Python >= 3.12.
    "0.2.0": {
      requirement: "nemo-switchyard==0.2.0",
      resolvedAsOf: "2026-08-17T00:00:00Z",
      python: "3.12",
    },
    "0.3.0": {
      requirement: "nemo-switchyard==0.3.0",
      resolvedAsOf: "2026-09-29T00:00:00Z",
      python: "3.11",
    },
  },
};

/** Switchyard client format -> our backend dialect and its base URL under the mock. */
export const SWITCHYARD_CLIENTS = [
  {
    name: "openai_chat",
    format: "openai_chat",
    backend: "openai-chat",
    base: (m: string) => `${m}/v1`,
  },
  {
    name: "openai_responses",
    format: "openai_responses",
    backend: "openai-responses",
    base: (m: string) => `${m}/v1`,
  },
  {
    name: "anthropic_messages",
    format: "anthropic_messages",
    backend: "anthropic-messages",
    base: (m: string) => `${m}/v1`,
  },
  // Strict providers (mock personas): an OpenAI-format client at DeepSeek, Anthropic's checks.
  {
    name: "deepseek",
    format: "openai_chat",
    backend: "openai-chat",
    persona: "deepseek",
    base: (m: string) => `${m}/v1`,
  },
  {
    name: "anthropic_strict",
    format: "anthropic_messages",
    backend: "anthropic-messages",
    persona: "anthropic",
    base: (m: string) => `${m}/v1`,
  },
  // DeepSeek's Anthropic-compatible API, at its mount (mock-upstream/personas/mounts.ts).
  // @see https://api-docs.deepseek.com/guides/anthropic_api
  {
    name: "deepseek_anthropic",
    format: "anthropic_messages",
    backend: "anthropic-messages",
    persona: "deepseek",
    base: (m: string) => `${m}/anthropic/v1`,
  },
] as const satisfies readonly {
  name: string;
  format: string;
  backend: Dialect;
  persona?: string;
  base(m: string): string;
}[];

type SwitchyardClient = (typeof SWITCHYARD_CLIENTS)[number];
const personaOf = (c: SwitchyardClient): string | undefined =>
  "persona" in c ? c.persona : undefined;
/** The route id the client names as its model. */
const routeModel = (c: SwitchyardClient): string =>
  `gc-${c.backend}${personaOf(c) ? `-${personaOf(c)}` : ""}`;

/** The base URL each client's format stands for (the mock in its place, path kept). */
const BASE_FOR: Record<SwitchyardClient["name"], string> = {
  openai_chat: "OpenAI's https://api.openai.com/v1; the client appends /chat/completions",
  openai_responses: "OpenAI's https://api.openai.com/v1; the client appends /responses",
  anthropic_messages: "Anthropic's https://api.anthropic.com/v1; the client appends /messages",
  deepseek:
    "DeepSeek's documented OpenAI-compatible https://api.deepseek.com/v1 (https://api-docs.deepseek.com/); the client appends /chat/completions",
  anthropic_strict: "Anthropic's https://api.anthropic.com/v1; the client appends /messages",
  deepseek_anthropic:
    "DeepSeek's Anthropic base_url https://api.deepseek.com/anthropic (https://api-docs.deepseek.com/guides/anthropic_api) plus /v1; the client appends /messages",
};

export function switchyardTomlLines(ctx: Pick<LaunchContext, "mockUrl">): Cited[] {
  const lines: Cited[] = [cited("schema_version = 1", SCHEMA), cited("", SCHEMA)];
  for (const c of SWITCHYARD_CLIENTS) {
    lines.push(
      cited(`[llm_clients.${c.name}]`, SCHEMA),
      cited(`format = ${q(c.format)}`, SCHEMA),
      cited(
        `base_url = ${q(c.base(ctx.mockUrl(c.backend, personaOf(c))))}`,
        APPENDS,
        BASE_FOR[c.name],
      ),
      cited(`api_key_env = ${q(KEY_ENV)}`, SCHEMA, "a variable we set to a fake gatecheck key"),
      cited(
        "max_retries = 0",
        SCHEMA,
        "its default is 2 (408, 429, 5xx): off, so what the client gets answers the one upstream reply the cell staged",
      ),
      cited("", SCHEMA),
      cited(`[targets.${c.name}]`, SCHEMA),
      cited(
        `id = ${q(RECIPE_MODEL)}`,
        SCHEMA,
        "the mock's model: a target sends one fixed model id",
      ),
      cited(`llm_client = ${q(c.name)}`, SCHEMA),
      cited("", SCHEMA),
      cited(`[routes.${c.name}]`, SCHEMA),
      cited(`id = ${q(routeModel(c))}`, SCHEMA, "clients send the route's id as the model name"),
      cited(
        `type = "passthrough"`,
        SCHEMA,
        "one target per route: no routing decision between models",
      ),
      cited(`target = ${q(c.name)}`, SCHEMA),
      cited("", SCHEMA),
    );
  }
  // The file ends with the last block's blank line.
  return lines.slice(0, -1);
}

export function switchyardToml(ctx: Pick<LaunchContext, "mockUrl">): string {
  return renderFile({ lines: switchyardTomlLines(ctx) });
}

/** switchyard.toml, the port our launcher passes, and the environment, each cited. */
export function switchyardCitedConfig(ctx: LaunchContext): CitedConfig {
  const launcher = "gatecheck gateways/python/switchyard-serve.py";
  return {
    files: { "switchyard.toml": { lines: switchyardTomlLines(ctx) } },
    args: [
      cited(
        `${ctx.workdir}/switchyard.toml`,
        launcher,
        "the wheel's switchyard_rust.server.Server takes the TOML; our launcher runs it until SIGTERM",
      ),
      cited(
        String(ctx.port),
        launcher,
        "the port the launcher hands the Server (it binds loopback only)",
      ),
    ],
    env: {
      [KEY_ENV]: cited(RECIPE_PROVIDER_KEY, SCHEMA, "api_key_env names it; a fake gatecheck key"),
      PYTHONUNBUFFERED: cited(
        "1",
        "https://docs.python.org/3/using/cmdline.html#envvar-PYTHONUNBUFFERED",
        "a crash's last lines reach gateway.log",
      ),
    },
  };
}

const CLIENTS = [
  ["openai-chat", "/v1/chat/completions"],
  ["anthropic-messages", "/v1/messages"],
  ["openai-responses", "/v1/responses"],
] as const;

const NOTE = "the route id picks the backend; the upstream model is always gatecheck-model";

const ROWS: RecipeRouteRow[] = CLIENTS.flatMap(([client, ingressPath]) =>
  SWITCHYARD_CLIENTS.filter((c) => !personaOf(c)).map((c) => ({
    id: `${client}->${c.backend}`,
    client,
    backend: c.backend,
    ingressPath,
    model: () => routeModel(c),
    status: "works" as const,
    notes: NOTE,
  })),
);

/**
 * Claude Code through Switchyard to DeepSeek (its Chat API, and its Anthropic API); an OpenAI
 * client to Anthropic's checks.
 */
const PERSONA_ROWS: RecipeRouteRow[] = (
  [
    ["anthropic-messages", "/v1/messages", "deepseek"],
    ["openai-chat", "/v1/chat/completions", "anthropic_strict"],
    ["anthropic-messages", "/v1/messages", "deepseek_anthropic"],
  ] as const
).map(([client, ingressPath, name]) => {
  const c = SWITCHYARD_CLIENTS.find((x) => x.name === name) ?? SWITCHYARD_CLIENTS[0];
  const persona = personaOf(c) ?? "";
  return {
    id: `${client}->${c.backend}@${persona}`,
    client,
    backend: c.backend,
    ingressPath,
    model: () => routeModel(c),
    persona,
    status: "works" as const,
    notes: NOTE,
  };
});

export const switchyard = pythonAdapter({
  python: SWITCHYARD_PYTHON,
  description:
    "NVIDIA NeMo Switchyard (PyPI nemo-switchyard wheel's server, hash-locked virtualenv), TOML routes",
  defaultVersion: "0.3.0",
  writeConfig: (ctx) => writeCitedFiles(ctx.workdir, switchyardCitedConfig(ctx)),
  citedConfig: switchyardCitedConfig,
  command: (ctx, dir) => {
    const { args, env } = switchyardCitedConfig(ctx);
    const { [KEY_ENV]: key, ...plain } = plainRecord(env);
    return {
      command: venvPython(dir),
      args: [join(REPO_ROOT, "gateways", "python", "switchyard-serve.py"), ...plainArgs(args)],
      env: plain,
      fakeCredentials: { [KEY_ENV]: key ?? RECIPE_PROVIDER_KEY },
      readyPath: "/health",
      readyTimeoutMs: PYTHON_READY_TIMEOUT_MS,
    };
  },
  routes: () => recipeRoutes([...ROWS, ...PERSONA_ROWS]),
});
