/**
 * any-llm gateway (mozilla-ai, PyPI), found on PATH as `any-llm-gateway`.
 * `serve --config config.yaml` (host and port from GATEWAY_HOST/GATEWAY_PORT); providers
 * with `api_base` at the mock; a local SQLite
 * database in the work folder; the master key is a fake gatecheck key the client sends.
 * Clients name `<provider>:<model>`.
 * @see https://github.com/mozilla-ai/any-llm/blob/main/docs/gateway/configuration.md
 */
import type { Dialect } from "../../dialects/dialect.ts";
import type { LaunchContext } from "../adapter.ts";
import { binaryAdapter } from "../binary.ts";
import {
  q,
  RECIPE_PROVIDER_KEY,
  type RecipeRouteRow,
  recipeRoutes,
  writeWorkFile,
} from "./recipe-kit.ts";

export const ANY_LLM_MASTER_KEY = "gatecheck-any-llm-master-key";

export const ANY_LLM_PROVIDERS = [
  { name: "openai", backend: "openai-chat", base: (m: string) => `${m}/v1` },
  { name: "anthropic", backend: "anthropic-messages", base: (m: string) => m },
  { name: "ollama", backend: "ollama", base: (m: string) => m },
] as const satisfies readonly { name: string; backend: Dialect; base(m: string): string }[];

export function anyLlmConfigYaml(ctx: Pick<LaunchContext, "mockUrl" | "workdir">): string {
  const lines = [
    `database_url: ${q(`sqlite:///${ctx.workdir}/any-llm.db`)}`,
    `master_key: ${q(ANY_LLM_MASTER_KEY)}`,
    "providers:",
  ];
  for (const p of ANY_LLM_PROVIDERS) {
    lines.push(
      `  ${p.name}:`,
      `    api_key: ${q(RECIPE_PROVIDER_KEY)}`,
      `    api_base: ${q(p.base(ctx.mockUrl(p.backend)))}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

const ROWS: RecipeRouteRow[] = ANY_LLM_PROVIDERS.map((p) => ({
  id: `openai-chat->${p.backend}`,
  client: "openai-chat",
  backend: p.backend,
  ingressPath: "/v1/chat/completions",
  model: (m: string) => `${p.name}:${m}`,
}));

export const anyLlm = binaryAdapter({
  name: "any-llm",
  description: "any-llm gateway (binary `any-llm-gateway` on PATH, from PyPI)",
  binary: "any-llm-gateway",
  writeConfig: async (ctx) => [await writeWorkFile(ctx, "any-llm.yaml", anyLlmConfigYaml(ctx))],
  command: (ctx, binary) => ({
    command: binary,
    args: ["serve", "--config", `${ctx.workdir}/any-llm.yaml`],
    env: { GATEWAY_HOST: "127.0.0.1", GATEWAY_PORT: String(ctx.port) },
    readyPath: "/health",
  }),
  routes: () => recipeRoutes(ROWS),
});
