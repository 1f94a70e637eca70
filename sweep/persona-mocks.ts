/**
 * Strict providers in the sweep: a route with a `persona` (gateways/adapter.ts) is served by
 * a mock listener of its own that validates every request as that provider does
 * (mock-upstream/personas/). A column starts one listener per persona its routes name, and
 * a rejection by one is judged a finding of its own (`strict-provider`, judge-attempt.ts).
 */
import { join } from "node:path";
import type { ExchangeContext } from "../dialects/wire/exchange.ts";
import type { GatewayRoute } from "../gateways/adapter.ts";
import { type MockHandle, startMock } from "../mock-upstream/index.ts";
import { mountsOf, providerMount } from "../mock-upstream/personas/mounts.ts";
import { insideRoot } from "../results/inside-root.ts";

/**
 * The path a persona's listener strips: the provider's mount of a dialect
 * (mock-upstream/personas/mounts.ts; the mock serves one prefix per listener).
 */
function mountOf(persona: string): string | undefined {
  return mountsOf(persona)[0]?.at;
}

/** What a persona's base URL adds to the listener's: a mount a gateway is given in it. */
function baseUrlMount(persona: string): string {
  return mountsOf(persona).find((m) => m.inBaseUrl)?.at ?? "";
}

/**
 * The provider mount a route's backend flavour is served at, as the exchange's context
 * states it for the lens (the path a forwarded request must take there), or none.
 */
export function backendMountOf(
  route: Pick<GatewayRoute, "persona" | "backend">,
): ExchangeContext["backendMount"] {
  const mount = providerMount(route.persona, route.backend);
  if (!mount) return undefined;
  return { provider: mount.persona, at: mount.at, replaces: mount.replaces, see: mount.see };
}

export interface ColumnMocks {
  /** The listener a route's requests reach: its persona's, else the column's own. */
  forRoute(route: Pick<GatewayRoute, "persona">): MockHandle;
  /** Base URL for a backend (every dialect shares a listener) or a persona. */
  url(persona?: string): string;
  /** Every listener: the column's own first, then each persona's. */
  listeners(): MockHandle[];
  close(): Promise<void>;
}

/**
 * A column's mock listeners: its own (`mock-records.jsonl` in `workdir`, on `port` when an
 * attached gateway was pointed there) and one per persona its routes name. The sweep and
 * `gateways doctor` both start them here, so a route's check and its cells meet the same mock.
 */
export async function startColumnMocks(
  label: string,
  workdir: string,
  routes: readonly Pick<GatewayRoute, "persona">[],
  options: { port?: number } = {},
): Promise<ColumnMocks> {
  const main = await startMock({
    name: label,
    recordFile: join(workdir, "mock-records.jsonl"),
    ...(options.port !== undefined ? { port: options.port } : {}),
  });
  const personas = await startPersonaMocks(label, workdir, routes, main).catch(async (error) => {
    await main.close();
    throw error;
  });
  return {
    ...personas,
    close: async () => {
      await personas.close();
      await main.close();
    },
  };
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
          recordFile: insideRoot(workdir, `mock-records-${persona}.jsonl`),
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
      `${pick(persona).url}${persona && byPersona.has(persona) ? baseUrlMount(persona) : ""}`,
    listeners: () => [main, ...byPersona.values()],
    close: async () => {
      await Promise.all([...byPersona.values()].map((m) => m.close()));
    },
  };
}
