/** @see https://platform.openai.com/docs/api-reference/responses/create */
import type { DialectRoutes } from "../dialect-module.ts";
import { fixedPaths } from "../route-match.ts";

export const RESPONSES_ROUTES = {
  generate: () => "/v1/responses",
  generateStream: () => "/v1/responses",
  models: "/v1/models",
  match: fixedPaths("openai-responses", ["/v1/responses", "/responses"], []),
  framing: "sse",
  looksLike: /\/responses(\/|$)/,
} as const satisfies DialectRoutes;
