/**
 * Everything the views need about one run, read once: the run, its gateways, its cells, and
 * the probe definitions the cells point to. The renderers are pure functions of this.
 */
import { type FindingRecord, findingsOf } from "./findings.ts";
import { type LoopRecord, loopsOfRun } from "./loop-records.ts";
import type { CellRecord, GatewayRunRecord, ProbeRecord, RunRecord } from "./records.ts";
import { ResultsError } from "./results-error.ts";
import type { ResultsStore } from "./store.ts";

export interface RunView {
  run: RunRecord;
  gatewayRuns: GatewayRunRecord[];
  cells: CellRecord[];
  /** By `probeId#definitionHash`. */
  probes: Map<string, ProbeRecord>;
  /** Every silent defect keyed by cell and subject, the cells' own and side findings
   * (results/findings.ts). */
  findings: FindingRecord[];
  /** The run's agent loops, without their evidence (results/loop-records.ts). */
  loops?: LoopRecord[];
}

export function probeKey(probeId: string, definitionHash: string): string {
  return `${probeId}#${definitionHash}`;
}

/** The named run, or the latest one when no id is given. */
export function loadRunView(store: ResultsStore, runId?: string): RunView {
  const run = runId ? store.requireRun(runId) : store.latestRun();
  if (!run) throw new ResultsError("not-found", `no runs in ${store.path}`);
  const probes = new Map<string, ProbeRecord>();
  for (const p of store.probesOfRun(run.id)) probes.set(probeKey(p.probeId, p.definitionHash), p);
  return {
    run,
    gatewayRuns: store.gatewayRuns(run.id),
    cells: store.cells(run.id),
    probes,
    findings: findingsOf(store, run.id),
    loops: loopsOfRun(store.db, run.id),
  };
}

/** Axis and field of a cell's probe; a probe missing from the table still shows, by id. */
export function probeOfCell(view: RunView, cell: CellRecord): { axis: string; field: string } {
  const probe = view.probes.get(probeKey(cell.probeId, cell.definitionHash));
  return probe
    ? { axis: probe.axis, field: probe.field }
    : { axis: "unknown", field: cell.probeId };
}

/**
 * What a route speaks to past the gateway: `openai-chat:ollama` of
 * `openai-chat->openai-chat:ollama` (route ids are `<client>-><backend>[:<flavour>]`,
 * gateways/adapter.ts). Two routes to one backend dialect keep their own names.
 */
export function routeTarget(routeId: string): string {
  const arrow = routeId.indexOf("->");
  return arrow < 0 ? routeId : routeId.slice(arrow + 2);
}
