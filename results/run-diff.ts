/**
 * What changed between two runs. Cells are matched by (column, route, probe, mode) and the
 * probe's definition hash: a probe whose definition changed is a different probe and is
 * listed apart, never compared. Columns are matched as column-match.ts says: by label, or
 * across a version bump by lineage (`portkey+locked`) where that is unambiguous, so
 * `portkey@1.15.2` and `portkey@1.15.2+locked` never stand in for each other.
 * A regression is a cell that went from clean to a silent defect; `diff` exits 1 on any.
 */
import {
  FINDING_SEVERITIES,
  type FindingSeverity,
  severityOf,
  severityRank,
} from "../probes/lens/severity.ts";
import { VERDICT_CLASS, type VerdictKind } from "../probes/verdict.ts";
import { columnLineage, columnsOf, matchColumns } from "./column-match.ts";
import { type CellRecord, cellKeyString } from "./records.ts";
import { diffSideFindings, sideFindingsByCell } from "./run-diff-findings.ts";
import { gatewayOfColumn } from "./run-summary.ts";
import { probeOfCell, type RunView } from "./run-view.ts";

export interface CellSide {
  column: string;
  verdict: VerdictKind;
  reason: string;
  runs: number;
  determinism: number;
  /** On a side finding: the attempt whose bytes show it (`export --attempt-id`). */
  attemptId?: number;
  /** A silent defect's severity (probes/lens/severity.ts) on the cell's target. */
  severity?: FindingSeverity;
}

export interface CellChange {
  gateway: string;
  routeId: string;
  probeId: string;
  field: string;
  mode: string;
  /** Set on a side finding: the subject (not the probe's own) whose verdict changed. */
  subject?: string;
  before?: CellSide;
  after?: CellSide;
}

export interface RunDiff {
  runA: string;
  runB: string;
  /** Clean in A, silent defect in B: fails a nightly job. */
  regressions: CellChange[];
  /** Silent defect in B that was not one in A (regressions included), or a cell new in B. */
  newSilent: CellChange[];
  /** Silent defect in A, clean in B. */
  fixed: CellChange[];
  /** Any other change of verdict (silent kind changed, rejected → ok, measured → not-run, ...). */
  otherChanges: CellChange[];
  /** Side findings (a silent defect on a subject that is not the probe's own, results/
   * findings.ts) new in B; those on a subject A's attempt judged clean are also regressions. */
  newFindings: CellChange[];
  /** Side findings of A gone in B on a compared cell. */
  fixedFindings: CellChange[];
  /** Columns whose version or run status differs, by lineage (`portkey+locked`: the column
   * label without its version). */
  gatewayChanges: { gateway: string; before?: string; after?: string }[];
  /** Probes present in both runs under different definition hashes: not compared. */
  changedProbes: { probeId: string; hashA: string[]; hashB: string[] }[];
  compared: number;
}

export interface DiffOptions {
  /** The verdict run A's main attempt of `cell` gave `subject`, if it judged it: decides
   * whether a new side finding is a regression (clean before) or only new. */
  verdictBefore?: (cell: CellRecord, subject: string) => VerdictKind | undefined;
}

export function diffRuns(a: RunView, b: RunView, options: DiffOptions = {}): RunDiff {
  const columnsA = columnsOf(a.gatewayRuns, columnLabels(a));
  const columnsB = columnsOf(b.gatewayRuns, columnLabels(b));
  const earlierColumn = matchColumns(columnsA, columnsB);
  const indexA = indexCells(a, (column) => column);
  // A column of B with no counterpart in A gets a key no cell of A has.
  const indexB = indexCells(b, (column) => earlierColumn.get(column) ?? `\u0001${column}`);
  const diff: RunDiff = {
    runA: a.run.id,
    runB: b.run.id,
    regressions: [],
    newSilent: [],
    fixed: [],
    otherChanges: [],
    newFindings: [],
    fixedFindings: [],
    gatewayChanges: gatewayChanges(a, b),
    changedProbes: changedProbes(a.cells, b.cells),
    compared: 0,
  };
  const sideA = sideFindingsByCell(a);
  const sideB = sideFindingsByCell(b);
  for (const [key, after] of indexB) {
    const before = indexA.get(key);
    const change = toChange(b, after, before?.cell, after.cell);
    diffSideFindings(diff, {
      base: change,
      after: after.cell,
      before: before?.cell,
      findingsA: before ? (sideA.get(cellKeyString(before.cell)) ?? []) : [],
      findingsB: sideB.get(cellKeyString(after.cell)) ?? [],
      verdictBefore: options.verdictBefore,
    });
    if (!before) {
      if (isSilent(after.cell.verdict)) diff.newSilent.push(change);
      continue;
    }
    diff.compared += 1;
    const va = before.cell.verdict;
    const vb = after.cell.verdict;
    if (va === vb) continue;
    if (isSilent(vb) && !isSilent(va)) {
      diff.newSilent.push(change);
      if (VERDICT_CLASS[va] === "clean") diff.regressions.push(change);
    } else if (isSilent(va) && VERDICT_CLASS[vb] === "clean") diff.fixed.push(change);
    else diff.otherChanges.push(change);
  }
  return diff;
}

function isSilent(v: VerdictKind): boolean {
  return VERDICT_CLASS[v] === "silent";
}

interface Indexed {
  cell: CellRecord;
  gateway: string;
}

function columnLabels(view: RunView): Set<string> {
  return new Set(view.cells.map((c) => c.column));
}

/** Cells by (compared column, route, probe, definition, mode). */
function indexCells(
  view: RunView,
  comparedColumn: (column: string) => string,
): Map<string, Indexed> {
  const gatewayOf = new Map(view.gatewayRuns.map((g) => [g.column, g.gateway]));
  const index = new Map<string, Indexed>();
  for (const cell of view.cells) {
    const gateway = gatewayOf.get(cell.column) ?? gatewayOfColumn(cell.column);
    const key = [
      comparedColumn(cell.column),
      cell.routeId,
      cell.probeId,
      cell.definitionHash,
      cell.mode,
    ].join("\u0000");
    index.set(key, { cell, gateway });
  }
  return index;
}

function side(cell: CellRecord): CellSide {
  return {
    column: cell.column,
    verdict: cell.verdict,
    reason: cell.reason,
    runs: cell.runs,
    determinism: cell.determinism,
    ...(isSilent(cell.verdict)
      ? {
          severity: severityOf({
            subject: cell.subject,
            verdict: cell.verdict,
            cause: cell.cause,
            backend: cell.backendDialect,
          }).severity,
        }
      : {}),
  };
}

/** The severity a change is about: the defect it brings, or the one it ends. */
export function changeSeverity(c: CellChange): FindingSeverity | undefined {
  return c.after?.severity ?? c.before?.severity;
}

/** ` · 1 critical, 2 major` for the changes that carry a severity. */
function severityCounts(changes: readonly CellChange[]): string {
  const counts = FINDING_SEVERITIES.map(
    (s) => [s, changes.filter((c) => changeSeverity(c) === s).length] as const,
  ).filter(([, n]) => n > 0);
  return counts.length === 0 ? "" : ` · ${counts.map(([s, n]) => `${n} ${s}`).join(", ")}`;
}

function toChange(
  view: RunView,
  indexed: Indexed,
  before: CellRecord | undefined,
  after: CellRecord,
): CellChange {
  return {
    gateway: indexed.gateway,
    routeId: after.routeId,
    probeId: after.probeId,
    field: probeOfCell(view, after).field,
    mode: after.mode,
    before: before ? side(before) : undefined,
    after: side(after),
  };
}

/** Per column lineage (`portkey`, `portkey+locked`): the version and status each run had. */
function gatewayChanges(a: RunView, b: RunView): RunDiff["gatewayChanges"] {
  const describe = (view: RunView) => {
    const m = new Map<string, string>();
    for (const g of view.gatewayRuns) {
      const text = `${g.version}${g.status === "ok" ? "" : ` (${g.status})`}`;
      const lineage = columnLineage(g);
      m.set(lineage, m.has(lineage) ? `${m.get(lineage)}, ${text}` : text);
    }
    return m;
  };
  const da = describe(a);
  const db = describe(b);
  const names = [...new Set([...da.keys(), ...db.keys()])].sort();
  return names
    .filter((n) => da.get(n) !== db.get(n))
    .map((gateway) => ({ gateway, before: da.get(gateway), after: db.get(gateway) }));
}

function changedProbes(
  a: readonly CellRecord[],
  b: readonly CellRecord[],
): RunDiff["changedProbes"] {
  const hashes = (cells: readonly CellRecord[]) => {
    const m = new Map<string, Set<string>>();
    for (const c of cells) m.set(c.probeId, (m.get(c.probeId) ?? new Set()).add(c.definitionHash));
    return m;
  };
  const ha = hashes(a);
  const hb = hashes(b);
  const out: RunDiff["changedProbes"] = [];
  for (const [probeId, setB] of hb) {
    const setA = ha.get(probeId);
    if (!setA) continue;
    const same = setA.size === setB.size && [...setA].every((h) => setB.has(h));
    if (!same) out.push({ probeId, hashA: [...setA].sort(), hashB: [...setB].sort() });
  }
  return out.sort((x, y) => x.probeId.localeCompare(y.probeId));
}

/** The diff as Markdown-ish text for a terminal or a CI log. */
export function formatRunDiff(diff: RunDiff): string {
  const out = [`gatecheck diff ${diff.runA} → ${diff.runB} (${diff.compared} cells compared)`, ""];
  // Most costly first within a section; the order of equals is the diff's.
  const section = (title: string, changes: CellChange[]) => {
    out.push(`## ${title} (${changes.length})${severityCounts(changes)}`);
    const ranked = changes
      .map((c, i) => ({ c, i, rank: severityRank(changeSeverity(c) ?? "") }))
      .sort((x, y) => x.rank - y.rank || x.i - y.i);
    for (const { c } of ranked) out.push(`- ${changeLine(c)}`);
    out.push("");
  };
  section("Regressions: clean → silent defect", diff.regressions);
  section("New silent defects", diff.newSilent);
  section("Fixed: silent defect → clean", diff.fixed);
  section("Other verdict changes", diff.otherChanges);
  section("New side findings: a silent defect on a subject not the probe's own", diff.newFindings);
  section("Side findings gone", diff.fixedFindings);
  out.push(`## Gateway changes (${diff.gatewayChanges.length})`);
  for (const g of diff.gatewayChanges) {
    out.push(`- ${g.gateway}: ${g.before ?? "absent"} → ${g.after ?? "absent"}`);
  }
  out.push("");
  out.push(`## Probes changed, not compared (${diff.changedProbes.length})`);
  for (const p of diff.changedProbes) {
    out.push(`- ${p.probeId}: ${p.hashA.join(",")} → ${p.hashB.join(",")}`);
  }
  return `${out.join("\n").trimEnd()}\n`;
}

function changeLine(c: CellChange): string {
  const show = (s: CellSide | undefined) =>
    s ? `${s.verdict}${s.runs > 1 ? ` ${s.determinism}/${s.runs}` : ""}` : "absent";
  const columns =
    c.before && c.after && c.before.column !== c.after.column
      ? `${c.before.column} → ${c.after.column}`
      : (c.after?.column ?? c.before?.column ?? c.gateway);
  const sideMark = c.subject ? ` [side: ${c.subject}]` : "";
  const shown =
    c.after?.verdict !== undefined && c.after.attemptId !== undefined ? c.after : c.before;
  const reason = (c.after ?? c.before)?.reason;
  const attempt = shown?.attemptId === undefined ? "" : ` #${shown.attemptId}`;
  const severity = changeSeverity(c);
  return `${severity ? `[${severity}] ` : ""}${columns} ${c.routeId} ${c.mode} \`${c.field}\` (${c.probeId})${sideMark}: ${show(c.before)} → ${show(c.after)}${reason ? `: ${reason}` : ""}${attempt}`;
}
