/**
 * GoModel (enterpilot/gomodel), found on PATH as `gomodel`. Configured by environment:
 * per-provider key and base URL variables, `PORT` for the listener. Keys are fake
 * gatecheck keys (the scrubbed environment never carries the user's). At start-up GoModel
 * lists each provider's models: those polls reach the mock untagged, as background traffic.
 * @see https://pkg.go.dev/github.com/enterpilot/gomodel (README, .env.template)
 */
import type { Dialect } from "../../dialects/dialect.ts";
import type { LaunchContext } from "../adapter.ts";
import { binaryAdapter } from "../binary.ts";
import {
  prefixedRows,
  RECIPE_PROVIDER_KEY,
  type RecipeRouteRow,
  recipeRoutes,
} from "./recipe-kit.ts";

/** Provider env prefix -> backend dialect and the base URL GoModel expects. */
export const GOMODEL_PROVIDERS = [
  { env: "OPENAI", backend: "openai-chat", base: (m: string) => `${m}/v1` },
  { env: "ANTHROPIC", backend: "anthropic-messages", base: (m: string) => `${m}/v1` },
  { env: "GEMINI", backend: "gemini", base: (m: string) => `${m}/v1beta` },
] as const satisfies readonly { env: string; backend: Dialect; base(m: string): string }[];

export function gomodelEnvironment(ctx: Pick<LaunchContext, "mockUrl" | "port">) {
  const env: Record<string, string> = { PORT: String(ctx.port), LOG_FORMAT: "text" };
  const keys: Record<string, string> = {};
  for (const p of GOMODEL_PROVIDERS) {
    env[`${p.env}_BASE_URL`] = p.base(ctx.mockUrl(p.backend));
    keys[`${p.env}_API_KEY`] = RECIPE_PROVIDER_KEY;
  }
  env.OLLAMA_BASE_URL = `${ctx.mockUrl("openai-chat")}/v1`;
  return { env, keys };
}

const ROWS: RecipeRouteRow[] = prefixedRows(
  { "openai-chat": "/v1/chat/completions", "anthropic-messages": "/v1/messages" },
  [
    ["openai-chat", "openai-chat", "openai"],
    ["openai-chat", "anthropic-messages", "anthropic"],
    ["openai-chat", "gemini", "gemini"],
    ["anthropic-messages", "anthropic-messages", "anthropic"],
    ["anthropic-messages", "openai-chat", "openai"],
  ],
);

export const gomodel = binaryAdapter({
  name: "gomodel",
  description: "GoModel gateway (binary `gomodel` on PATH), configured by environment",
  binary: "gomodel",
  // Everything rides in the environment; there is no file to write.
  writeConfig: async () => [],
  command: (ctx, binary) => {
    const { env, keys } = gomodelEnvironment(ctx);
    return { command: binary, args: [], env, fakeCredentials: keys, readyPath: "/health" };
  },
  routes: () => recipeRoutes(ROWS),
});
