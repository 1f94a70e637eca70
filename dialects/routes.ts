/**
 * Which dialect's endpoint a request path is, from each dialect module's routes
 * (`dialects/<d>/routes.ts`), and which dialect a model-list request on the path three of them
 * share speaks. The mock serves these paths; the lens checks a forwarded path against them
 * (a `/v1/v1/...` is mangled).
 */
import { DIALECTS, type Dialect } from "./dialect.ts";
import { DIALECT_MODULES } from "./registry.ts";
import { isStreamForm, type ReplyFormRow, replyFormRow } from "./reply-forms.ts";
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
  for (const dialect of DIALECTS) {
    const module = DIALECT_MODULES[dialect];
    if (module.identifyingHeaders.length === 0) continue;
    const marks = [module.auth.header, ...module.identifyingHeaders];
    if (marks.some((h) => lower.has(h))) return dialect;
  }
  return "openai-chat";
}

/**
 * The dialect a request to a path no dialect owns most likely speaks, so its error comes in
 * the shape its caller reads: a header only that dialect's clients send, else a path that
 * looks like the dialect's, else OpenAI Chat's.
 */
export function guessDialect(path: string, headerNames: readonly string[]): Dialect {
  const lower = new Set(headerNames.map((n) => n.toLowerCase()));
  for (const dialect of DIALECTS) {
    const module = DIALECT_MODULES[dialect];
    if (module.identifyingHeaders.some((h) => lower.has(h))) return dialect;
  }
  for (const dialect of DIALECTS) {
    if (DIALECT_MODULES[dialect].routes.looksLike?.test(path)) return dialect;
  }
  return "openai-chat";
}

/**
 * Whether a request asks for a stream: the form its dialect's reply-form table gives it
 * (reply-forms.ts) is one. Gemini streams through another method whatever the query says;
 * elsewhere the body's `stream` decides, its absence meaning the dialect's default (Ollama
 * streams unless `stream: false`).
 */
export function requestStreams(match: PathMatch, body: unknown): boolean {
  return isStreamForm(replyFormOf(match, "", body).form);
}

/** The reply-form row that answers a generate request with this query string and body. */
export function replyFormOf(match: PathMatch, query: string, body: unknown): ReplyFormRow {
  const method = match.stream === undefined ? undefined : match.stream ? "stream" : "generate";
  return replyFormRow(DIALECT_MODULES[match.dialect].replyForms, {
    ...(method ? { method } : {}),
    query,
    body,
  });
}

/**
 * The headers a native client of `dialect` sends with `apiKey`: JSON content, its auth
 * header, and the headers every request of the dialect carries.
 */
export function clientHeaders(dialect: Dialect, apiKey: string): Record<string, string> {
  return { "content-type": "application/json", ...authHeaders(dialect, apiKey) };
}

/** A native client's auth header with `apiKey`, and the headers the dialect requires. */
export function authHeaders(dialect: Dialect, apiKey: string): Record<string, string> {
  const module = DIALECT_MODULES[dialect];
  const { header, scheme } = module.auth;
  return { [header]: scheme ? `${scheme} ${apiKey}` : apiKey, ...module.requiredHeaders };
}
