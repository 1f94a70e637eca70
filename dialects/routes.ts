/**
 * Which dialect's endpoint a request path is, from each dialect module's routes
 * (`dialects/<d>/routes.ts`), and which dialect a model-list request on the path three of them
 * share speaks. The mock serves these paths; the lens checks a forwarded path against them
 * (a `/v1/v1/...` is mangled).
 */
import { DIALECTS, type Dialect } from "./dialect.ts";
import { DIALECT_MODULES } from "./registry.ts";
import type { PathMatch } from "./route-match.ts";

export type { DialectRoutes } from "./dialect-module.ts";
export type { PathMatch } from "./route-match.ts";

/**
 * Which dialect a request path implies. `prefix` is a gateway-specific mount point
 * (`/api/v1`) stripped before matching. The models path `/v1/models` is shared by OpenAI,
 * Anthropic and Gemini's `v1`; it answers as OpenAI's, and the caller tells them apart by
 * headers (sharedModelsDialect).
 */
export function dialectOfPath(path: string, prefix = ""): PathMatch | undefined {
  const query = path.indexOf("?");
  let p = query < 0 ? path : path.slice(0, query);
  if (prefix && p.startsWith(prefix)) p = p.slice(prefix.length) || "/";
  for (const dialect of DIALECTS) {
    const match = DIALECT_MODULES[dialect].routes.match(p);
    if (match) return match;
  }
  return undefined;
}

/**
 * The dialect of a request to the shared `/v1/models`, from its header names: each provider's
 * SDK authenticates with its own header (Anthropic's `x-api-key` beside `anthropic-version`,
 * Google's `x-goog-api-key`, OpenAI's `authorization`).
 */
export function sharedModelsDialect(headerNames: readonly string[]): Dialect {
  const lower = new Set(headerNames.map((n) => n.toLowerCase()));
  for (const dialect of ["anthropic-messages", "gemini"] as const) {
    const module = DIALECT_MODULES[dialect];
    const marks = [module.auth.header, ...Object.keys(module.requiredHeaders)];
    if (marks.some((h) => lower.has(h))) return dialect;
  }
  return "openai-chat";
}
