/**
 * @see https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion
 * @see https://github.com/ollama/ollama/blob/main/docs/api.md#list-local-models
 */
import type { DialectRoutes } from "../dialect-module.ts";
import { fixedPaths } from "../route-match.ts";

export const OLLAMA_ROUTES = {
  generate: () => "/api/chat",
  generateStream: () => "/api/chat",
  models: "/api/tags",
  match: fixedPaths("ollama", ["/api/chat"], ["/api/tags"]),
  framing: "ndjson",
  looksLike: /(^|\/)api\/(chat|generate|tags|show|embed)/,
} as const satisfies DialectRoutes;
