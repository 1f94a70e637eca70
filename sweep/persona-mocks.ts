/**
 * Strict providers in the sweep: a route with a `persona` (gateways/adapter.ts) is served by
 * a mock listener of its own that validates every request as that provider does
 * (mock-upstream/personas/). A column starts one listener per persona its routes name, and
 * a rejection by one is judged a finding of its own (`strict-provider`, judge-attempt.ts).
 */
import { join } from "node:path";
import type { GatewayRoute } from "../gateways/adapter.ts";
import { type MockHandle, startMock } from "../mock-upstream/index.ts";

/**
 * Where a provider serves its OpenAI-compatible API below the host: the persona's listener
 * strips it (the mock's `prefix`), and its URL includes it, in place of `/v1`.
 * @see https://ai.google.dev/gemini-api/docs/openai
 */
export const PERSONA_MOUNTS: Readonly<Record<string, string>> = { google: "/v1beta/openai" };

/**
 * A second API a provider serves below the same host, in another dialect: the listener
 * strips it too, but the base URL a gateway is given does not name it (the gateway finds it
 * itself). DeepSeek serves an Anthropic-compatible Messages API at `/anthropic`, where
 * LiteLLM 1.96.2 sends a Messages client's requests.
 * @see https://api-docs.deepseek.com/guides/anthropic_api
 */
export const PERSONA_SECOND_MOUNTS: Readonly<Record<string, string>> = { deepseek: "/anthropic" };

/** The path the persona's listener strips: its API's mount, else its second API's. */
function mountOf(persona: string): string | undefined {
  return PERSONA_MOUNTS[persona] ?? PERSONA_SECOND_MOUNTS[persona];
}

export interface ColumnMocks {
  /** The listener a route's requests reach: its persona's, else the column's own. */
  forRoute(route: Pick<GatewayRoute, "persona">): MockHandle;
  /** Base URL for a backend (every dialect shares a listener) or a persona. */
  url(persona?: string): string;
  close(): Promise<void>;
}

export async function startPersonaMocks(
  label: string,
  workdir: string,
  routes: readonly Pick<GatewayRoute, "persona">[],
  main: MockHandle,
): Promise<ColumnMocks> {
  const personas = [...new Set(routes.flatMap((r) => (r.persona ? [r.persona] : [])))];
  const byPersona = new Map<string, MockHandle>();
  try {
    for (const persona of personas) {
      byPersona.set(
        persona,
        await startMock({
          name: `${label}@${persona}`,
          recordFile: join(workdir, `mock-records-${persona}.jsonl`),
          persona,
          ...(mountOf(persona) ? { prefix: mountOf(persona) } : {}),
        }),
      );
    }
  } catch (error) {
    await Promise.all([...byPersona.values()].map((m) => m.close()));
    throw error;
  }
  // A gateway's config names every provider it has, also those of routes this column does
  // not run: those point at the column's own listener, which no route of theirs reaches.
  const pick = (persona?: string): MockHandle => (persona && byPersona.get(persona)) || main;
  return {
    forRoute: (route) => pick(route.persona),
    url: (persona) =>
      `${pick(persona).url}${(persona && byPersona.has(persona) && PERSONA_MOUNTS[persona]) || ""}`,
    close: async () => {
      await Promise.all([...byPersona.values()].map((m) => m.close()));
    },
  };
}
