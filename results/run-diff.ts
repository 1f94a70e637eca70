/**
 * What changed between two runs. Cells are matched by gateway name (not column, so a version
 * bump still compares), route, probe id, probe definition hash and mode: a probe whose
 * definition changed is a different probe and is listed apart, never compared.
 * A regression is a cell that went from clean to a silent defect; `diff` exits 1 on any.
 */
import { VERDICT_CLASS, type VerdictKind } from "../probes/verdict.ts";
import type { CellRecord } from "./records.ts";
import { gatewayOfColumn } from "./run-summary.ts";
import { probeOfCell, type RunView } from "./run-view.ts";

export interface CellSide {
  column: string;
  verdict: VerdictKind;
  reason: string;
  runs: number;
  determinism: number;
}

export interface CellChange {
  gateway: string;
  routeId: string;
  probeId: string;
  field: string;
  mode: string;
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
  /** Gateways whose version or run status differs. */
  gatewayChanges: { gateway: string; before?: string; after?: string }[];
  /** Probes present in both runs under different definition hashes: not compared. */
  changedProbes: { probeId: string; hashA: string[]; hashB: string[] }[];
  compared: number;
}

export function diffRuns(a: RunView, b: RunView): RunDiff {
  const indexA = indexCells(a);
  const indexB = indexCells(b);
  const diff: RunDiff = {
    runA: a.run.id,
    runB: b.run.id,
    regressions: [],
    newSilent: [],
    fixed: [],
    otherChanges: [],
    gatewayChanges: gatewayChanges(a, b),
    changedProbes: changedProbes(a.cells, b.cells),
    compared: 0,
  };
  for (const [key, after] of indexB) {
    const before = indexA.get(key);
    const change = toChange(b, after, before?.cell, after.cell);
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

function indexCells(view: RunView): Map<string, Indexed> {
  const gatewayOf = new Map(view.gatewayRuns.map((g) => [g.column, g.gateway]));
  const index = new Map<string, Indexed>();
  for (const cell of view.cells) {
    const gateway = gatewayOf.get(cell.column) ?? gatewayOfColumn(cell.column);
    const key = [gateway, cell.routeId, cell.probeId, cell.definitionHash, cell.mode].join(
      "\u0000",
    );
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
  };
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

function gatewayChanges(a: RunView, b: RunView): RunDiff["gatewayChanges"] {
  const describe = (view: RunView) => {
    const m = new Map<string, string>();
    for (const g of view.gatewayRuns) {
      const text = `${g.version}${g.status === "ok" ? "" : ` (${g.status})`}`;
      m.set(g.gateway, m.has(g.gateway) ? `${m.get(g.gateway)}, ${text}` : text);
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
  const section = (title: string, changes: CellChange[]) => {
    out.push(`## ${title} (${changes.length})`);
    for (const c of changes) out.push(`- ${changeLine(c)}`);
    out.push("");
  };
  section("Regressions: clean → silent defect", diff.regressions);
  section("New silent defects", diff.newSilent);
  section("Fixed: silent defect → clean", diff.fixed);
  section("Other verdict changes", diff.otherChanges);
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
  return `${columns} ${c.routeId} ${c.mode} \`${c.field}\` (${c.probeId}): ${show(c.before)} → ${show(c.after)}${c.after ? `: ${c.after.reason}` : ""}`;
}
