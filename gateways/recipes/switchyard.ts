/**
 * NVIDIA NeMo Switchyard server, found on PATH as `switchyard-server`. The TOML names one
 * LLM client per backend format (base_url at the mock, key from an env variable we set to
 * a fake key), one target per client, and one passthrough route per target; the client
 * names the route id as its model. Targets send the fixed model `gatecheck-model`.
 * @see https://github.com/NVIDIA-NeMo/Switchyard/blob/main/crates/switchyard-server/README.md
 */
import type { Dialect } from "../../dialects/dialect.ts";
import type { LaunchContext } from "../adapter.ts";
import { binaryAdapter } from "../binary.ts";
import {
  q,
  RECIPE_MODEL,
  RECIPE_PROVIDER_KEY,
  type RecipeRouteRow,
  recipeRoutes,
  writeWorkFile,
} from "./recipe-kit.ts";

const KEY_ENV = "GATECHECK_SWITCHYARD_API_KEY";

/** Switchyard client format -> our backend dialect and its base URL under the mock. */
export const SWITCHYARD_CLIENTS = [
  { name: "openai_chat", backend: "openai-chat", base: (m: string) => `${m}/v1` },
  { name: "openai_responses", backend: "openai-responses", base: (m: string) => `${m}/v1` },
  { name: "anthropic_messages", backend: "anthropic-messages", base: (m: string) => `${m}/v1` },
] as const satisfies readonly { name: string; backend: Dialect; base(m: string): string }[];

export function switchyardToml(ctx: Pick<LaunchContext, "mockUrl">): string {
  const lines = ["schema_version = 1", ""];
  for (const c of SWITCHYARD_CLIENTS) {
    lines.push(
      `[llm_clients.${c.name}]`,
      `format = ${q(c.name)}`,
      `base_url = ${q(c.base(ctx.mockUrl(c.backend)))}`,
      `api_key_env = ${q(KEY_ENV)}`,
      "max_retries = 0",
      "",
      `[targets.${c.name}]`,
      `id = ${q(RECIPE_MODEL)}`,
      `llm_client = ${q(c.name)}`,
      "",
      `[routes.${c.name}]`,
      `id = ${q(`gc-${c.backend}`)}`,
      `type = "passthrough"`,
      `target = ${q(c.name)}`,
      "",
    );
  }
  return lines.join("\n");
}

const CLIENTS = [
  ["openai-chat", "/v1/chat/completions"],
  ["anthropic-messages", "/v1/messages"],
  ["openai-responses", "/v1/responses"],
] as const;

const ROWS: RecipeRouteRow[] = CLIENTS.flatMap(([client, ingressPath]) =>
  SWITCHYARD_CLIENTS.map((c) => ({
    id: `${client}->${c.backend}`,
    client,
    backend: c.backend,
    ingressPath,
    model: () => `gc-${c.backend}`,
    notes: "the route id picks the backend; the upstream model is always gatecheck-model",
  })),
);

export const switchyard = binaryAdapter({
  name: "switchyard",
  description: "NVIDIA NeMo Switchyard (binary `switchyard-server` on PATH), TOML routes",
  binary: "switchyard-server",
  writeConfig: async (ctx) => [await writeWorkFile(ctx, "switchyard.toml", switchyardToml(ctx))],
  command: (ctx, binary) => ({
    command: binary,
    args: [
      "--config",
      `${ctx.workdir}/switchyard.toml`,
      "--host",
      "127.0.0.1",
      "--port",
      String(ctx.port),
    ],
    fakeCredentials: { [KEY_ENV]: RECIPE_PROVIDER_KEY },
    readyPath: "/health",
  }),
  routes: () => recipeRoutes(ROWS),
});
