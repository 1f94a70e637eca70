/**
 * Where a provider serves a dialect below its host when that is not the dialect's own route:
 * a provider *mount*. Google serves its OpenAI-compatible Chat API at `/v1beta/openai` in
 * place of OpenAI's `/v1`; DeepSeek serves an Anthropic-compatible Messages API at
 * `/anthropic` before Anthropic's `/v1/messages`. A request that reaches such a provider
 * reaches it there, so the path a gateway must forward to is the mount's, not the dialect's.
 *
 * Data with a reference per row: the persona's listener strips `at` (mock-upstream's
 * `prefix`), the sweep gives a gateway `at` in its base URL where `inBaseUrl` (a provider
 * configured by base URL) and otherwise lets the gateway find the mount itself, and the
 * lens expects a forwarded path under `at` in place of the dialect's `replaces` prefix.
 */
import type { Dialect } from "../../dialects/dialect.ts";

export interface ProviderMount {
  /** The persona (provider) serving it. */
  persona: string;
  /** The dialect it serves there. */
  backend: Dialect;
  /** The path the provider's API for that dialect sits under. */
  at: string;
  /** The prefix of the dialect's own route that `at` stands in place of ("" adds it before). */
  replaces: string;
  /** Whether a gateway is given `at` in its base URL (else it knows the mount itself). */
  inBaseUrl: boolean;
  see: string;
}

export const PROVIDER_MOUNTS: readonly ProviderMount[] = [
  {
    persona: "google",
    backend: "openai-chat",
    at: "/v1beta/openai",
    replaces: "/v1",
    inBaseUrl: true,
    see: "https://ai.google.dev/gemini-api/docs/openai",
  },
  {
    persona: "deepseek",
    backend: "anthropic-messages",
    at: "/anthropic",
    replaces: "",
    inBaseUrl: false,
    see: "https://api-docs.deepseek.com/guides/anthropic_api",
  },
];

/** The mount a provider serves a dialect at, if it is one. */
export function providerMount(
  persona: string | undefined,
  backend: Dialect,
): ProviderMount | undefined {
  if (!persona) return undefined;
  return PROVIDER_MOUNTS.find((m) => m.persona === persona && m.backend === backend);
}

/** The mounts a persona's listener serves below its host (at most one per path). */
export function mountsOf(persona: string): ProviderMount[] {
  return PROVIDER_MOUNTS.filter((m) => m.persona === persona);
}
