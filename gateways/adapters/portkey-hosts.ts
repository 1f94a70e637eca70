/**
 * Where Portkey's custom host points: the mock in place of a provider's own base URL, that
 * URL's path kept, because Portkey calls `customHost || provider.getBaseURL()` followed by
 * the provider's endpoint path. The base URLs and endpoints are read in the installed source.
 * @see https://portkey.ai/docs/product/ai-gateway/custom-hosts
 */
import { type Cited, cited } from "../cited.ts";

export const SRC = "@portkey-ai/gateway@1.15.2 build/start-server.js";
const FULL_URL = `${SRC} (getFullURL: customHost || getBaseURL, then + getEndpoint)`;

/** What a custom host stands for: a provider's base URL and the endpoint Portkey appends. */
export const UPSTREAM = {
  openai: cited(
    "https://api.openai.com/v1",
    `${SRC} (providers/openai/api.ts: getBaseURL https://api.openai.com/v1)`,
  ),
  anthropic: cited(
    "https://api.anthropic.com/v1",
    `${SRC} (providers/anthropic/api.ts: getBaseURL https://api.anthropic.com/v1)`,
  ),
  google: cited(
    "https://generativelanguage.googleapis.com",
    `${SRC} (providers/google/api.ts: getBaseURL https://generativelanguage.googleapis.com)`,
  ),
  ollama: cited(
    "http://localhost:11434",
    "https://portkey.ai/docs/integrations/llms/ollama",
    'Portkey has no Ollama default; its docs give custom_host "http://localhost:11434", "without the version identifier"',
  ),
  deepseek: cited(
    "https://api.deepseek.com",
    `${SRC} (providers/deepseek/api.ts: getBaseURL https://api.deepseek.com)`,
  ),
  // DeepSeek's Anthropic API is at https://api.deepseek.com/anthropic where Anthropic's is at
  // https://api.anthropic.com; Portkey's anthropic provider keeps its base URL's /v1.
  "deepseek-anthropic": cited(
    "https://api.deepseek.com/anthropic/v1",
    "https://api-docs.deepseek.com/guides/anthropic_api",
    "base_url https://api.deepseek.com/anthropic, plus the /v1 of Portkey's anthropic base URL (its endpoint is /messages)",
  ),
} as const satisfies Record<string, Cited>;

export const ENDPOINT = {
  chat: cited("/chat/completions", `${SRC} (providers/openai/api.ts: getEndpoint chatComplete)`),
  responses: cited(
    "/responses",
    `${SRC} (providers/openai/api.ts: getEndpoint createModelResponse, the path after /v1)`,
  ),
  messages: cited(
    "/messages",
    `${SRC} (providers/anthropic/api.ts: getEndpoint chatComplete and messages)`,
  ),
  gemini: cited(
    "/v1beta/models/{model}:generateContent",
    `${SRC} (providers/google/api.ts: getEndpoint chatComplete, :streamGenerateContent when streaming)`,
  ),
  ollama: cited(
    "/v1/chat/completions",
    `${SRC} (providers/ollama/api.ts: getEndpoint chatComplete)`,
  ),
  deepseek: cited(
    "/v1/chat/completions",
    `${SRC} (providers/deepseek/api.ts: getEndpoint chatComplete)`,
  ),
} as const satisfies Record<string, Cited>;

/** What a route row says about its custom host. */
export interface PortkeyHostRow {
  /** The URL the custom host stands for: the mock's URL takes its place, its path kept. */
  upstream: keyof typeof UPSTREAM;
  /** The path Portkey appends to the custom host for this ingress. */
  endpoint: keyof typeof ENDPOINT;
}

/** The custom host: the mock's URL in place of the row's upstream, the upstream's path kept. */
export function portkeyCustomHost(row: PortkeyHostRow, mockUrl: string): Cited {
  const upstream = UPSTREAM[row.upstream];
  const path = new URL(upstream.value).pathname.replace(/\/+$/, "");
  return cited(
    `${mockUrl}${path}`,
    upstream.ref,
    `the mock in place of ${upstream.value}: Portkey appends ${ENDPOINT[row.endpoint].value} (${ENDPOINT[row.endpoint].ref}; ${FULL_URL})${upstream.choice ? `; ${upstream.choice}` : ""}`,
  );
}

/** The URL path Portkey calls for a row, custom host included (what the backend must serve). */
export function portkeyForwardedPath(row: PortkeyHostRow, mockUrl: string): string {
  const host = new URL(portkeyCustomHost(row, mockUrl).value);
  return `${host.pathname.replace(/\/+$/, "")}${ENDPOINT[row.endpoint].value}`.replace(
    "{model}",
    "gatecheck-model",
  );
}
