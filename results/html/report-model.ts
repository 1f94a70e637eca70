/**
 * The HTML report's data: one run's cells laid out as a matrix (one table per client
 * dialect; rows are probed fields grouped by axis, columns are gateway column × route),
 * each cell with its marks, its history across earlier runs and the bytes of one attempt.
 * Pure: the caller (report-inputs.ts) reads the database.
 */

import { CLIENT_DIALECTS } from "../../dialects/dialect.ts";
import { AXES } from "../../probes/corpus/probe.ts";
import { VERDICT_CLASS, type VerdictKind } from "../../probes/verdict.ts";
import type { AttemptRecord, CellRecord, RunRecord } from "../records.ts";
import type { ReportFacts } from "../report-facts.ts";
import type { RunDiff } from "../run-diff.ts";
import { type ColumnSummary, summarizeRun } from "../run-summary.ts";
import { probeKey, probeOfCell, type RunView } from "../run-view.ts";
import { DEFAULT_DB_PATH } from "../store.ts";
import { CONTROL_MARK, VERDICT_TOKEN } from "../verdict-tokens.ts";
import { issueUrl } from "./html-escape.ts";
import { reportSections } from "./report-sections.ts";
import { highlightTerms, type WirePanes, wirePanes } from "./wire-detail.ts";

/** DESIGN.md's axes in its order (the corpus's AXES); unknown axes follow alphabetically. */
const AXIS_ORDER: readonly string[] = AXES;

export interface HistoryPoint {
  runId: string;
  startedAt: string;
  verdict: VerdictKind;
}

export interface ReportInputs {
  view: RunView;
  /** What the Markdown's sections are rendered from (report-facts.ts). */
  facts: ReportFacts;
  /** The database the page was made from, for the drill-down's `export` command. */
  dbPath?: string;
  /** The attempt shown for each cell, by `cellId`. */
  attempts: ReadonlyMap<string, AttemptRecord>;
  /** Earlier runs' verdicts of the same cell, oldest first, by `historyKey`. */
  history: ReadonlyMap<string, HistoryPoint[]>;
  /** Changes since an earlier run, when there is one. */
  diff?: RunDiff;
  /** Every run in the database, newest first (for the run list). */
  runs: readonly RunRecord[];
}

export interface MatrixColumn {
  column: string;
  gateway: string;
  routeId: string;
  backend: string;
  /** The gateway's status in this run: anything but `ok` is drawn as an absence. */
  status: string;
  reason?: string;
}

export interface MatrixRow {
  axis: string;
  field: string;
  probeId: string;
  severity: string;
}

export interface CellDetail {
  phase: string;
  attemptNo: number;
  /** This attempt's own verdict on the probed field (may differ from the folded cell's). */
  attemptVerdict?: string;
  panes: WirePanes;
  /** Strings to mark in the request panes (the probe's planted values). */
  terms: string[];
}

/** A silent defect on a subject the cell's probe did not ask about (results/findings.ts). */
export interface SideFinding {
  subject: string;
  verdict: VerdictKind;
  cause?: string;
  reason: string;
  k: number;
}

export interface CellData {
  id: number;
  column: string;
  routeId: string;
  client: string;
  backend: string;
  probeId: string;
  field: string;
  axis: string;
  mode: string;
  verdict: VerdictKind;
  token: string;
  reason: string;
  cause?: string;
  k: number;
  n: number;
  counts: Partial<Record<VerdictKind, number>>;
  control?: VerdictKind;
  controlMark?: string;
  knownIssue?: string;
  knownIssueUrl?: string;
  history: HistoryPoint[];
  /** Side findings on this cell's attempts. */
  side: SideFinding[];
  detail?: CellDetail;
}

export interface ClientTable {
  client: string;
  columns: MatrixColumn[];
  rows: MatrixRow[];
  /** `row index` → `column index` → cell ids (one per mode). */
  grid: number[][][];
}

/** One of the Markdown report's sections, rendered once for both views. */
export interface ReportSection {
  id: string;
  title: string;
  /** Markdown lines (results/markdown-report.ts's renderers); the page converts them. */
  lines: string[];
  /** Shown folded (an appendix). */
  folded: boolean;
}

export interface ReportModel {
  run: RunRecord;
  /** What the drill-down's `gatecheck export` command names: the run and the database. */
  exportBase: { runId: string; db?: string };
  sections: ReportSection[];
  runs: { id: string; startedAt: string; status: string }[];
  rates: ColumnSummary[];
  tables: ClientTable[];
  cells: CellData[];
  diff?: RunDiff;
}

export function cellId(cell: Pick<CellRecord, "column" | "routeId" | "probeId" | "mode">): string {
  return `${cell.column}\u0000${cell.routeId}\u0000${cell.probeId}\u0000${cell.mode}`;
}

/**
 * Same cell across runs: by this run's column (an earlier run's column is mapped to it as
 * `diff` maps them, results/column-match.ts) and probe definition (a changed probe is a
 * different probe, as in run-diff.ts).
 */
export function historyKey(
  column: string,
  cell: Pick<CellRecord, "routeId" | "probeId" | "definitionHash" | "mode">,
): string {
  return [column, cell.routeId, cell.probeId, cell.definitionHash, cell.mode].join("\u0000");
}

export function controlMark(verdict: VerdictKind): string {
  const cls = VERDICT_CLASS[verdict];
  if (cls === "clean") return CONTROL_MARK.clean;
  if (cls === "not-a-finding") return CONTROL_MARK.undecided;
  return CONTROL_MARK.lost;
}

export function buildReportModel(inputs: ReportInputs): ReportModel {
  const { view } = inputs;
  const side = sideFindingsByCell(view);
  const cells = view.cells.map((cell, id) =>
    cellData(inputs, cell, id, side.get(cellId(cell)) ?? []),
  );
  const tables = CLIENT_DIALECTS.flatMap((client) => {
    const own = cells.filter((c) => c.client === client);
    return own.length === 0 ? [] : [clientTable(client, own, view)];
  });
  return {
    run: view.run,
    exportBase: {
      runId: view.run.id,
      ...(inputs.dbPath && inputs.dbPath !== DEFAULT_DB_PATH ? { db: inputs.dbPath } : {}),
    },
    sections: reportSections(inputs.facts),
    runs: inputs.runs.map((r) => ({ id: r.id, startedAt: r.startedAt, status: r.status })),
    rates: summarizeRun(view.run, view.gatewayRuns, view.cells).columns,
    tables,
    cells,
    ...(inputs.diff ? { diff: inputs.diff } : {}),
  };
}

function cellData(
  inputs: ReportInputs,
  cell: CellRecord,
  id: number,
  side: SideFinding[],
): CellData {
  const { axis, field } = probeOfCell(inputs.view, cell);
  const attempt = inputs.attempts.get(cellId(cell));
  const probe = inputs.view.probes.get(probeKey(cell.probeId, cell.definitionHash));
  const fragment = (probe?.definition as { request?: unknown } | undefined)?.request;
  const knownIssueUrl = cell.knownIssue ? issueUrl(cell.knownIssue) : undefined;
  return {
    id,
    column: cell.column,
    routeId: cell.routeId,
    client: cell.clientDialect,
    backend: cell.backendDialect,
    probeId: cell.probeId,
    field,
    axis,
    mode: cell.mode,
    verdict: cell.verdict,
    token: VERDICT_TOKEN[cell.verdict],
    reason: cell.reason,
    ...(cell.cause ? { cause: cell.cause } : {}),
    k: cell.determinism,
    n: cell.runs,
    counts: cell.counts,
    ...(cell.controlVerdict
      ? { control: cell.controlVerdict, controlMark: controlMark(cell.controlVerdict) }
      : {}),
    ...(cell.knownIssue ? { knownIssue: cell.knownIssue } : {}),
    ...(knownIssueUrl ? { knownIssueUrl } : {}),
    history: inputs.history.get(historyKey(cell.column, cell)) ?? [],
    side,
    ...(attempt
      ? {
          detail: {
            phase: attempt.phase,
            attemptNo: attempt.attemptNo,
            ...attemptVerdictOf(attempt, field),
            panes: wirePanes(attempt),
            terms: highlightTerms(field, fragment),
          },
        }
      : {}),
  };
}

function sideFindingsByCell(view: RunView): Map<string, SideFinding[]> {
  const out = new Map<string, SideFinding[]>();
  for (const f of view.findings) {
    if (f.own) continue;
    const id = cellId(f);
    const list = out.get(id) ?? [];
    list.push({
      subject: f.subject,
      verdict: f.verdict,
      ...(f.cause ? { cause: f.cause } : {}),
      reason: f.reason,
      k: f.k,
    });
    out.set(id, list);
  }
  return out;
}

function attemptVerdictOf(attempt: AttemptRecord, field: string): { attemptVerdict?: string } {
  const own = attempt.verdicts.find((v) => v.field === field);
  return own ? { attemptVerdict: `${own.verdict}: ${own.reason}` } : {};
}

function axisRank(axis: string): number {
  const i = AXIS_ORDER.indexOf(axis);
  return i < 0 ? AXIS_ORDER.length : i;
}

function clientTable(client: string, cells: CellData[], view: RunView): ClientTable {
  const status = new Map(view.gatewayRuns.map((g) => [g.column, g]));
  const columnKey = (c: { column: string; routeId: string }) => `${c.column}\u0000${c.routeId}`;
  const columns = new Map<string, MatrixColumn>();
  for (const c of cells) {
    if (columns.has(columnKey(c))) continue;
    const g = status.get(c.column);
    columns.set(columnKey(c), {
      column: c.column,
      gateway: g?.gateway ?? c.column.split("@")[0] ?? c.column,
      routeId: c.routeId,
      backend: c.backend,
      status: g?.status ?? "ok",
      ...(g?.reason ? { reason: g.reason } : {}),
    });
  }
  const columnList = [...columns.values()].sort(
    (a, b) => a.column.localeCompare(b.column) || a.routeId.localeCompare(b.routeId),
  );
  const rowKey = (c: { probeId: string }) => c.probeId;
  const rows = new Map<string, MatrixRow>();
  const severity = new Map([...view.probes.values()].map((p) => [p.probeId, p.severity]));
  for (const c of cells) {
    if (rows.has(rowKey(c))) continue;
    rows.set(rowKey(c), {
      axis: c.axis,
      field: c.field,
      probeId: c.probeId,
      severity: severity.get(c.probeId) ?? "",
    });
  }
  const rowList = [...rows.values()].sort(
    (a, b) =>
      axisRank(a.axis) - axisRank(b.axis) ||
      a.axis.localeCompare(b.axis) ||
      a.field.localeCompare(b.field) ||
      a.probeId.localeCompare(b.probeId),
  );
  const rowIndex = new Map(rowList.map((r, i) => [r.probeId, i]));
  const colIndex = new Map(columnList.map((c, i) => [columnKey(c), i]));
  const grid = rowList.map(() => columnList.map((): number[] => []));
  for (const c of cells) {
    const slot = grid[rowIndex.get(rowKey(c)) ?? -1]?.[colIndex.get(columnKey(c)) ?? -1];
    slot?.push(c.id);
  }
  for (const row of grid)
    for (const slot of row)
      slot.sort((a, b) => (cells[a]?.mode ?? "").localeCompare(cells[b]?.mode ?? ""));
  return { client, columns: columnList, rows: rowList, grid };
}
