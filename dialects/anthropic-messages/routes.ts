/**
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://docs.anthropic.com/en/api/models-list
 */
import type { DialectRoutes } from "../dialect-module.ts";
import { fixedPaths } from "../route-match.ts";

export const ANTHROPIC_ROUTES = {
  generate: () => "/v1/messages",
  generateStream: () => "/v1/messages",
  models: "/v1/models",
  match: fixedPaths("anthropic-messages", ["/v1/messages", "/messages"], []),
  framing: "sse",
} as const satisfies DialectRoutes;
