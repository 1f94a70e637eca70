/**
 * Gateways and servers gatecheck never launches: the user starts them and passes
 * `--attach URL`. AxonHub keeps its channels in its own database, so the user adds an
 * OpenAI-type channel whose base URL is the mock (`gatecheck mock`) before attaching.
 * vLLM, SGLang and Ollama serve models themselves: nothing reaches the mock, so only the
 * reply direction (and stream framing) of their OpenAI-compatible endpoint can be judged.
 * @see https://github.com/looplj/axonhub (channels, /v1 and /anthropic/v1 ingress)
 * @see https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html
 * @see https://docs.sglang.ai/backend/openai_api_completions.html
 * @see https://github.com/ollama/ollama/blob/main/docs/openai.md
 */
import { dialectModule } from "../../dialects/registry.ts";
import type { GatewayAdapter, InstallResult } from "../adapter.ts";
import { GatewayError, gatewayLabel } from "../adapter.ts";
import { type RecipeRouteRow, recipeRoutes } from "./recipe-kit.ts";

function attachOnly(
  name: string,
  description: string,
  rows: RecipeRouteRow[],
  unavailable?: string,
): GatewayAdapter {
  return {
    name,
    description,
    defaultVersion: "attached",
    source: "attach",
    ...(unavailable && { unavailable }),
    install: async (): Promise<InstallResult> => ({ status: "ok", cached: true }),
    version: async () => undefined,
    writeConfig: async () => [],
    launch: async (ctx) => {
      throw new GatewayError(
        "launch-failed",
        `${gatewayLabel(ctx.spec)}: attach-only; start it yourself and pass --attach URL`,
      );
    },
    routes: () => recipeRoutes(rows),
  };
}

const SELF_SERVED =
  "served by the model server itself: nothing reaches the mock, only the reply is judged";

/** Why the sweep cannot install AxonHub itself (issue 22; docs/gateways.md). */
export const AXONHUB_UNAVAILABLE =
  "cannot be built from a registry: its go.mod has local replace directives";

export const axonhub = attachOnly(
  "axonhub",
  "AxonHub (attach-only: channels live in its database)",
  [
    {
      id: "openai-chat->openai-chat",
      client: "openai-chat",
      backend: "openai-chat",
      ingressPath: "/v1/chat/completions",
      model: (m) => m,
    },
    {
      id: "anthropic-messages->openai-chat",
      client: "anthropic-messages",
      backend: "openai-chat",
      ingressPath: "/anthropic/v1/messages",
      model: (m) => m,
    },
    {
      id: "openai-responses->openai-chat",
      client: "openai-responses",
      backend: "openai-chat",
      ingressPath: "/v1/responses",
      model: (m) => m,
    },
  ],
  AXONHUB_UNAVAILABLE,
);

/** A route a self-serving server answers itself, on the dialect's own ingress path. */
function selfServed(client: "openai-chat" | "openai-responses"): RecipeRouteRow {
  return {
    id: `${client}->${client}`,
    client,
    backend: client,
    ingressPath: dialectModule(client).routes.generate(""),
    model: (m) => m,
    notes: SELF_SERVED,
  };
}

export const vllm = attachOnly("vllm", "vLLM OpenAI-compatible server (attach)", [
  selfServed("openai-chat"),
  selfServed("openai-responses"),
]);

export const sglang = attachOnly("sglang", "SGLang OpenAI-compatible server (attach)", [
  selfServed("openai-chat"),
]);

export const ollama = attachOnly("ollama", "Ollama's OpenAI-compatible endpoint (attach)", [
  selfServed("openai-chat"),
  selfServed("openai-responses"),
]);
