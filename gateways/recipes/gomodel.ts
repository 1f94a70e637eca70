/**
 * GoModel (Go module github.com/enterpilot/gomodel), installed with `go install` at the
 * version's tag (go-install.ts). Configured by environment: per-provider key and base URL
 * variables, `PORT` for the listener. It listens on every interface with no flag against it,
 * so it runs in a network namespace of its own (confine/netns.ts). Keys are fake gatecheck
 * keys (the scrubbed environment never carries the user's). At start-up GoModel lists each
 * provider's models: those polls reach the mock untagged, as background traffic.
 *
 * Not measured here: the Go module proxy this machine reaches refuses the module
 * ("403 This module version is not available", every version), so the column is not-run
 * with the proxy's words and the install log. Its environment and routes follow its README
 * and are unverified.
 * @see https://pkg.go.dev/github.com/enterpilot/gomodel (README, .env.template)
 */
import type { Dialect } from "../../dialects/dialect.ts";
import type { LaunchContext } from "../adapter.ts";
import { goAdapter } from "../go-adapter.ts";
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
  const env: Record<string, string> = {
    PORT: String(ctx.port),
    LOG_FORMAT: "text",
    // Offline: no model-list download, no version check (unverified names, see above).
    GOMODEL_DISABLE_MODEL_LIST_FETCH: "true",
    GOMODEL_DISABLE_VERSION_CHECK: "true",
  };
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

export const gomodel = goAdapter({
  go: {
    name: "gomodel",
    module: "github.com/enterpilot/gomodel",
    package: "github.com/enterpilot/gomodel/cmd/gomodel",
    binary: "gomodel",
  },
  description: "GoModel gateway (Go module, go install at a tag), confined to loopback",
  defaultVersion: "0.1.77",
  bindsEveryInterface: true,
  // Everything rides in the environment; there is no file to write.
  writeConfig: async () => [],
  command: (ctx, binary) => {
    const { env, keys } = gomodelEnvironment(ctx);
    return { command: binary, args: [], env, fakeCredentials: keys, readyPath: "/health" };
  },
  routes: () => recipeRoutes(ROWS),
});
