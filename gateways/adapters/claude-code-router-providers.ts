/**
 * claude-code-router's providers as gatecheck writes them into config.json: one per backend
 * flavour, each `api_base_url` the mock in place of the provider's own endpoint (CCR posts to
 * it as given), with the reference that says a CCR user writes it so.
 * @see https://github.com/musistudio/claude-code-router#providers
 */
import type { Dialect } from "../../dialects/dialect.ts";

/** Where the config keys are documented and read (2.0.0 bundles @musistudio/llms 1.0.51). */
export const README = "https://github.com/musistudio/claude-code-router#configuration";
export const SRC = "@musistudio/claude-code-router@2.0.0 dist/cli.js";
export const PROVIDERS_DOC = "https://github.com/musistudio/claude-code-router#providers";
export const TRANSFORMERS_DOC = "https://github.com/musistudio/claude-code-router#transformers";
/**
 * DeepSeek documents base_url https://api.deepseek.com and, "for OpenAI compatibility",
 * https://api.deepseek.com/v1; CCR's README example writes the first, ending in
 * /chat/completions. We write the /v1 form: the lens expects /v1/chat/completions on an
 * OpenAI Chat backend and judges the README form a wrong route, though DeepSeek serves it
 * (measured: docs/gateways.md, "Cited configuration").
 */
const DEEPSEEK_V1 =
  "DeepSeek's documented OpenAI-compatible base_url https://api.deepseek.com/v1 plus /chat/completions (CCR posts to api_base_url as given); the README's example omits /v1, which today's lens judges a wrong route";
const URL_AS_GIVEN = `${SRC} (bundled @musistudio/llms: the request goes to the transformer's url || new URL(provider.api_base_url))`;

/** The provider key written into CCR's config (what CCR sends upstream, never the client's). */
export const CCR_PROVIDER_KEY = "sk-gatecheck-ccr-provider-0000000000";

export interface CcrProviderRow {
  /** Provider name in config.json and in the client's `"<provider>,<model>"`. */
  name: string;
  backend: Dialect;
  /** Built from the mock base URL: the full endpoint (or prefix, for gemini). */
  apiBase(mockUrl: string): string;
  transformer?: string;
  /** The strict provider (mock persona) this provider's listener plays. */
  persona?: string;
  /** Where a user's `api_base_url` for this provider is written so. */
  baseRef: string;
  /** Where docs leave the URL open, which form this is and why. */
  baseChoice?: string;
  see: string;
}

/** Providers written into config.json, one per backend flavour. */
export const CCR_PROVIDERS = [
  {
    name: "gc-openai",
    backend: "openai-chat",
    apiBase: (m: string) => `${m}/v1/chat/completions`,
    baseRef: README,
    baseChoice:
      'the README\'s openai example, "https://api.openai.com/v1/chat/completions": the full endpoint, posted to as given',
    see: PROVIDERS_DOC,
  },
  {
    name: "gc-deepseek",
    backend: "openai-chat",
    apiBase: (m: string) => `${m}/v1/chat/completions`,
    transformer: "deepseek",
    baseRef: "https://api-docs.deepseek.com/",
    baseChoice: DEEPSEEK_V1,
    see: TRANSFORMERS_DOC,
  },
  {
    name: "gc-gemini",
    backend: "gemini",
    apiBase: (m: string) => `${m}/v1beta/models/`,
    transformer: "gemini",
    baseRef: README,
    baseChoice:
      'the README\'s gemini example, "https://generativelanguage.googleapis.com/v1beta/models/"; the gemini transformer appends <model>:generateContent',
    see: TRANSFORMERS_DOC,
  },
  {
    name: "gc-anthropic",
    backend: "anthropic-messages",
    apiBase: (m: string) => `${m}/v1/messages`,
    transformer: "Anthropic",
    baseRef: URL_AS_GIVEN,
    baseChoice:
      "the README has no Anthropic example; api_base_url is the full endpoint (README: Providers), so Anthropic's https://api.anthropic.com/v1/messages",
    see: TRANSFORMERS_DOC,
  },
  // Strict providers: the same transformers at listeners that check as DeepSeek and Anthropic do.
  {
    name: "gc-deepseek-strict",
    backend: "openai-chat",
    apiBase: (m: string) => `${m}/v1/chat/completions`,
    transformer: "deepseek",
    persona: "deepseek",
    baseRef: "https://api-docs.deepseek.com/",
    baseChoice: DEEPSEEK_V1,
    see: TRANSFORMERS_DOC,
  },
  {
    name: "gc-anthropic-strict",
    backend: "anthropic-messages",
    apiBase: (m: string) => `${m}/v1/messages`,
    transformer: "Anthropic",
    persona: "anthropic",
    baseRef: URL_AS_GIVEN,
    baseChoice:
      "the README has no Anthropic example; api_base_url is the full endpoint (README: Providers), so Anthropic's https://api.anthropic.com/v1/messages",
    see: TRANSFORMERS_DOC,
  },
  // DeepSeek's Anthropic-compatible API, the way Claude Code users reach DeepSeek through CCR:
  // the Anthropic transformer at `<DeepSeek>/anthropic/v1/messages` (mock-upstream's mounts).
  {
    name: "gc-deepseek-anthropic",
    backend: "anthropic-messages",
    apiBase: (m: string) => `${m}/anthropic/v1/messages`,
    transformer: "Anthropic",
    persona: "deepseek",
    baseRef: "https://api-docs.deepseek.com/guides/anthropic_api",
    baseChoice:
      "DeepSeek's Anthropic base_url https://api.deepseek.com/anthropic plus /v1/messages: CCR posts to api_base_url as given (the full endpoint)",
    see: TRANSFORMERS_DOC,
  },
] as const satisfies readonly CcrProviderRow[];

export type CcrProviderName = (typeof CCR_PROVIDERS)[number]["name"];
