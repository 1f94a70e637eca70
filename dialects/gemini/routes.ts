/**
 * Gemini carries the model and the stream choice in the path.
 * @see https://ai.google.dev/api/generate-content
 * @see https://ai.google.dev/api/models#method:-models.list
 */
import type { DialectRoutes } from "../dialect-module.ts";
import type { PathMatch } from "../route-match.ts";

const GENERATE = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

function matchGemini(path: string): PathMatch | undefined {
  if (path === "/v1beta/models") return { dialect: "gemini", kind: "models" };
  const m = GENERATE.exec(path);
  if (!m) return undefined;
  return {
    dialect: "gemini",
    kind: "generate",
    model: decodeURIComponent(m[1] ?? ""),
    stream: m[2] === "streamGenerateContent",
  };
}

export const GEMINI_ROUTES = {
  generate: (model: string) => `/v1beta/models/${model}:generateContent`,
  generateStream: (model: string) => `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
  models: "/v1beta/models",
  match: matchGemini,
  framing: "sse",
  looksLike: /\/v1(beta|alpha)\/|:\w*generateContent/i,
} as const satisfies DialectRoutes;
