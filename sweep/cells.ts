/**
 * Which cells a sweep runs: for one gateway column, every route it offers × every probe in
 * the route's client dialect that applies to its backend × every mode the probe runs in,
 * kept to this machine's shard. The order is stable (route, probe, mode) so progress and
 * logs read the same run after run.
 */
import type { Mode } from "../dialects/dialect.ts";
import type { GatewayAdapter, GatewayRoute } from "../gateways/adapter.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import { type CellKey, cellKeyString } from "../results/records.ts";
import { inShard, type Shard } from "./shard.ts";
import { stageableFor } from "./stage-upstream.ts";

export interface PlannedCell {
  key: CellKey;
  route: GatewayRoute;
  probe: Probe;
  /** Its route's preflight failed with this reason; the cell runs (a path probe), judged alone. */
  routePreflight?: string;
}

export interface CellFilter {
  modes: readonly Mode[];
  shard?: Shard;
  /** The column passes client credentials upstream by design (`direct`: there is no gateway). */
  credentialsPassThrough?: boolean;
}

/**
 * A credential probe asks "did the client's key reach the upstream?". That question has no
 * meaning where the key is the upstream's by design: with no gateway at all, or on a header
 * the route itself uses to carry the provider key (Portkey's Authorization). Such cells are
 * not planned, rather than judged as leaks.
 */
export function credentialByDesign(
  probe: Probe,
  route: GatewayRoute,
  passThrough: boolean,
): boolean {
  if (probe.axis !== "credential") return false;
  if (passThrough) return true;
  const match = /^credentials\.header\.(.+)$/.exec(probe.field);
  if (!match) return false;
  const routeHeaders = Object.keys(
    route.headers({ mockUrl: () => "http://127.0.0.1", apiKey: "k" }),
  );
  return routeHeaders.some((name) => name.toLowerCase() === match[1]);
}

export function probeApplies(
  probe: Probe,
  route: GatewayRoute,
  mode: Mode,
  filter?: CellFilter,
): boolean {
  return (
    !credentialByDesign(probe, route, filter?.credentialsPassThrough ?? false) &&
    probe.client === route.client &&
    probe.modes.includes(mode) &&
    (probe.backends === undefined || probe.backends.includes(route.backend)) &&
    stageableFor(probe, route.backend)
  );
}

export function planCells(
  column: string,
  routes: readonly GatewayRoute[],
  probes: readonly Probe[],
  filter: CellFilter,
): PlannedCell[] {
  const cells: PlannedCell[] = [];
  for (const route of routes) {
    for (const probe of probes) {
      for (const mode of filter.modes) {
        if (!probeApplies(probe, route, mode, filter)) continue;
        const key: CellKey = { column, routeId: route.id, probeId: probe.id, mode };
        if (inShard(cellKeyString(key), filter.shard)) cells.push({ key, route, probe });
      }
    }
  }
  return cells;
}

/**
 * How long the mock is staged to make a probe wait, at least: wire-plan delays (`*DelayMs`)
 * and `retry-after` seconds anywhere in its upstream steps. An estimate for ordering only.
 */
export function stagedWaitMs(probe: Probe): number {
  let total = 0;
  const walk = (value: unknown, key: string): void => {
    if (typeof value === "number") {
      if (/delayms$/i.test(key)) total += value;
      return;
    }
    if (typeof value === "string") {
      if (key.toLowerCase() === "retry-after" && /^\d+$/.test(value)) total += Number(value) * 1000;
      return;
    }
    if (Array.isArray(value)) for (const item of value) walk(item, key);
    else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) walk(v, k);
    }
  };
  walk(probe.upstream, "");
  return total;
}

/** Whether any upstream step of a probe answers with an error status (4xx or 5xx). */
export function stagesUpstreamError(probe: Probe): boolean {
  const upstream = probe.upstream;
  if (!upstream) return false;
  const steps = "sequence" in upstream ? upstream.sequence : [upstream];
  return steps.some(
    (step) =>
      "error" in step || ("raw" in step && Object.values(step.raw).some((r) => r.status >= 400)),
  );
}

/**
 * Whether a probe's request mostly waits on a timer rather than on the gateway's work: the
 * mock's delay, a `Retry-After` the gateway sleeps out, and on a gateway that sleeps a retry
 * backoff after an upstream error (its adapter's `sleepsBeforeRetry`), a staged error. Such
 * requests get request slots and lanes of their own where the gateway has them
 * (gateway-session.ts, column-phases.ts).
 */
export function waitsOnTimer(
  probe: Probe,
  gateway: Pick<GatewayAdapter, "sleepsBeforeRetry"> = {},
): boolean {
  return (
    stagedWaitMs(probe) > 0 || (gateway.sleepsBeforeRetry === true && stagesUpstreamError(probe))
  );
}

/**
 * Cells with staged waits first, longest first (stable otherwise): a 1.5 s slow upstream
 * started last holds the whole column open after every other cell is done; started first, it
 * waits while the rest run. Order changes no verdict: each cell has its own nonce.
 */
export function slowestFirst(cells: readonly PlannedCell[]): PlannedCell[] {
  const wait = new Map(cells.map((c) => [c.probe, stagedWaitMs(c.probe)]));
  return cells
    .map((cell, index) => ({ cell, index, wait: wait.get(cell.probe) ?? 0 }))
    .sort((a, b) => b.wait - a.wait || a.index - b.index)
    .map((x) => x.cell);
}
