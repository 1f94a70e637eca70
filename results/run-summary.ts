/**
 * Counting a run: per gateway column, how many cells got each verdict and the preservation
 * rate with its denominator. `no-equivalent` counts as clean but is kept apart; `not-run`
 * and `error` never enter the denominator, so an absent gateway has no rate at all rather
 * than a perfect one. The JSON summary (`report --json`, `results/summary.json`) is this
 * structure as is.
 */
import { VERDICT_CLASS, VERDICTS, type VerdictKind } from "../probes/verdict.ts";
import type { CellRecord, GatewayRunRecord, GatewayRunStatus, RunRecord } from "./records.ts";

export type VerdictCounts = Record<VerdictKind, number>;

export interface ColumnSummary {
  column: string;
  gateway: string;
  version: string;
  /** The gateway's own status in this run; `not-run` has no cells and no rate. */
  status: GatewayRunStatus;
  reason?: string;
  counts: VerdictCounts;
  /** preserved + no-equivalent. */
  clean: number;
  /** Cells with a finding either way: clean + silent + loud (not error, not not-run). */
  judged: number;
  /** clean / judged, or null when nothing was judged (never 100% by default). */
  preservationRate: number | null;
  silent: number;
  loud: number;
}

export interface RunSummary {
  runId: string;
  status: RunRecord["status"];
  startedAt: string;
  finishedAt?: string;
  gatecheckVersion: string;
  gitSha?: string;
  shard?: string;
  columns: ColumnSummary[];
  totals: VerdictCounts & { cells: number };
}

export function emptyCounts(): VerdictCounts {
  return Object.fromEntries(VERDICTS.map((v) => [v, 0])) as VerdictCounts;
}

/** The gateway name of a column label (`portkey@1.15.2+locked` → `portkey`). */
export function gatewayOfColumn(column: string): string {
  const at = column.indexOf("@");
  return at > 0 ? column.slice(0, at) : column;
}

export function summarizeRun(
  run: RunRecord,
  gatewayRuns: readonly GatewayRunRecord[],
  cells: readonly CellRecord[],
): RunSummary {
  const byColumn = new Map<string, ColumnSummary>();
  for (const g of gatewayRuns) {
    byColumn.set(g.column, blankColumn(g.column, g.gateway, g.version, g.status, g.reason));
  }
  const totals = { ...emptyCounts(), cells: 0 };
  for (const cell of cells) {
    let col = byColumn.get(cell.column);
    if (!col) {
      // A cell whose gateway row is missing still counts; its column says so.
      const gateway = gatewayOfColumn(cell.column);
      col = blankColumn(
        cell.column,
        gateway,
        cell.column.slice(gateway.length + 1),
        "ok",
        "no gateway_runs row",
      );
      byColumn.set(cell.column, col);
    }
    col.counts[cell.verdict] += 1;
    totals[cell.verdict] += 1;
    totals.cells += 1;
  }
  const columns = [...byColumn.values()].sort((a, b) => a.column.localeCompare(b.column));
  for (const col of columns) {
    for (const verdict of VERDICTS) {
      const n = col.counts[verdict];
      const cls = VERDICT_CLASS[verdict];
      if (cls === "clean") col.clean += n;
      if (cls === "silent") col.silent += n;
      if (cls === "loud") col.loud += n;
    }
    col.judged = col.clean + col.silent + col.loud;
    col.preservationRate = col.judged === 0 ? null : col.clean / col.judged;
  }
  return {
    runId: run.id,
    status: run.status,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    gatecheckVersion: run.gatecheckVersion,
    gitSha: run.gitSha,
    shard: run.shard,
    columns,
    totals,
  };
}

function blankColumn(
  column: string,
  gateway: string,
  version: string,
  status: GatewayRunStatus,
  reason: string | undefined,
): ColumnSummary {
  return {
    column,
    gateway,
    version,
    status,
    reason,
    counts: emptyCounts(),
    clean: 0,
    judged: 0,
    preservationRate: null,
    silent: 0,
    loud: 0,
  };
}

/** `93.3% (14/15)`, or `not measured` when nothing was judged. */
export function formatRate(col: ColumnSummary): string {
  if (col.preservationRate === null) return "not measured";
  return `${(col.preservationRate * 100).toFixed(1)}% (${col.clean}/${col.judged})`;
}
