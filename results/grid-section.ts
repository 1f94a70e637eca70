/**
 * The grid: one row per gateway column and route (every route its own row, also two routes
 * to one backend dialect), one column per axis, each cell `clean/judged` with the silent
 * defects and rejections among them, then per route the cells with a side finding and the
 * cells whose client got no answer. The field-by-field matrix is in the appendix.
 */
import { AXES } from "../probes/corpus/probe.ts";
import { VERDICT_CLASS } from "../probes/verdict.ts";
import { count, mdText } from "./markdown-text.ts";
import { cellKeyString } from "./records.ts";
import type { ReportFacts } from "./report-facts.ts";
import { probeOfCell } from "./run-view.ts";

export interface GridCounts {
  clean: number;
  judged: number;
  silent: number;
  loud: number;
  notMeasured: number;
}

export interface GridRow {
  column: string;
  routeId: string;
  byAxis: Map<string, GridCounts>;
  /** Cells with a side finding (a defect on a subject their probe did not ask about). */
  sideCells: number;
  /** Cells whose client got a 5xx or nothing while the upstream answered. */
  failedDelivery: number;
}

export interface Grid {
  axes: string[];
  rows: GridRow[];
}

function axisRank(axis: string): number {
  const i = (AXES as readonly string[]).indexOf(axis);
  return i < 0 ? AXES.length : i;
}

export function gridOf(facts: ReportFacts): Grid {
  const { view } = facts;
  const rows = new Map<string, GridRow>();
  const axes = new Set<string>();
  const rowOf = (column: string, routeId: string) => {
    const key = `${column}\u0000${routeId}`;
    let row = rows.get(key);
    if (!row) {
      row = { column, routeId, byAxis: new Map(), sideCells: 0, failedDelivery: 0 };
      rows.set(key, row);
    }
    return row;
  };
  for (const cell of view.cells) {
    const { axis } = probeOfCell(view, cell);
    axes.add(axis);
    const row = rowOf(cell.column, cell.routeId);
    const counts = row.byAxis.get(axis) ?? {
      clean: 0,
      judged: 0,
      silent: 0,
      loud: 0,
      notMeasured: 0,
    };
    row.byAxis.set(axis, counts);
    const cls = VERDICT_CLASS[cell.verdict];
    if (cls === "not-a-finding") counts.notMeasured += 1;
    else counts.judged += 1;
    if (cls === "clean") counts.clean += 1;
    if (cls === "silent") counts.silent += 1;
    if (cls === "loud") counts.loud += 1;
  }
  const sideSeen = new Set<string>();
  for (const f of view.findings) {
    const key = cellKeyString(f);
    if (f.own || sideSeen.has(key)) continue;
    sideSeen.add(key);
    rowOf(f.column, f.routeId).sideCells += 1;
  }
  for (const d of facts.deliveries) rowOf(d.column, d.routeId).failedDelivery += 1;
  return {
    axes: [...axes].sort((a, b) => axisRank(a) - axisRank(b) || a.localeCompare(b)),
    rows: [...rows.values()].sort(
      (a, b) => a.column.localeCompare(b.column) || a.routeId.localeCompare(b.routeId),
    ),
  };
}

export function gridCellText(c: GridCounts | undefined): string {
  if (!c) return "·";
  const parts = [c.judged > 0 ? `${c.clean}/${c.judged}` : "—"];
  if (c.silent > 0) parts.push(`**${c.silent}✗**`);
  if (c.loud > 0) parts.push(`${c.loud}r`);
  if (c.notMeasured > 0) parts.push(`+${c.notMeasured}?`);
  return parts.join(" ");
}

export function renderGrid(grid: Grid): string[] {
  if (grid.rows.length === 0) return [];
  return [
    "## Grid: every route by axis",
    "",
    "Per route and axis: `clean/judged` probe cells, **n✗** silent defects on the probe's own field, `nr` rejected, `+n?` not measured (not-run or error), `·` no cell. *Side* counts the route's cells with a defect on a subject their probe did not ask about; *no answer* the cells whose client got a 5xx or nothing while the upstream answered. Field by field: appendix B.",
    "",
    `| column | route | ${grid.axes.map(mdText).join(" | ")} | side | no answer |`,
    `|---|---|${grid.axes.map(() => "---").join("|")}|---|---|`,
    ...grid.rows.map(
      (r) =>
        `| ${mdText(r.column)} | ${mdText(r.routeId)} | ${grid.axes.map((a) => gridCellText(r.byAxis.get(a))).join(" | ")} | ${r.sideCells > 0 ? count(r.sideCells) : "·"} | ${r.failedDelivery > 0 ? `**${count(r.failedDelivery)}**` : "·"} |`,
    ),
    "",
  ];
}
