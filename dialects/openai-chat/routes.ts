/**
 * @see https://platform.openai.com/docs/api-reference/chat/create
 * @see https://platform.openai.com/docs/api-reference/models/list
 */
import type { DialectRoutes } from "../dialect-module.ts";
import { fixedPaths } from "../route-match.ts";

/** `/v1/models` is shared with Anthropic and Gemini's `v1` (routes.ts sharedModelsDialect). */
export const CHAT_ROUTES = {
  generate: () => "/v1/chat/completions",
  generateStream: () => "/v1/chat/completions",
  models: "/v1/models",
  // Gateways differ in whether they add `/v1`: the un-versioned paths answer too.
  match: fixedPaths(
    "openai-chat",
    ["/v1/chat/completions", "/chat/completions"],
    ["/v1/models", "/models"],
    true,
  ),
  framing: "sse",
} as const satisfies DialectRoutes;
