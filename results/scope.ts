/**
 * What a run measured and what it did not, before any number: columns that did not run and
 * why, routes that failed their preflight, routes offered whose every cell went unmeasured,
 * cells not measured grouped by reason, and the positive controls with their whole
 * denominator (positive-controls.ts). Pure.
 */

import { type PositiveControl, positiveControlsOf } from "./positive-controls.ts";
import type { CellRecord, GatewayRunRecord } from "./records.ts";
import { probeOfCell, type RunView } from "./run-view.ts";

export interface NotMeasuredGroup {
  column: string;
  verdict: "not-run" | "error";
  /** The cells' reason, without the `<field>: ` every lens reason starts with. */
  reason: string;
  cells: CellRecord[];
  routes: string[];
  /** Routes of the column whose every cell is in this group: offered, and not measured. */
  wholeRoutes: string[];
}

/**
 * How the reason of a cell the sweep did not run because its route failed the preflight
 * begins (sweep/route-preflight.ts): `route preflight failed (<mode>): <why>`.
 */
export const PREFLIGHT_REASON = "route preflight failed";

/** A route and the modes in which its plain request was not served, so it was not swept. */
export interface PreflightFailedRoute {
  column: string;
  route: string;
  modes: string[];
  /** The preflight's reason, as the cells carry it after `(<mode>): `. */
  reason: string;
  /** Its cells not run for it. */
  cells: number;
}

export interface RunScope {
  measured: { column: string; cells: number; routes: number }[];
  /** Columns that did not run (`not-run`) or crashed (`error`), with their reason. */
  absent: GatewayRunRecord[];
  notMeasured: NotMeasuredGroup[];
  /** Routes whose preflight failed: not swept, never findings (docs/sweep.md). */
  preflightFailed: PreflightFailedRoute[];
  controls: PositiveControl[];
}

export function scopeOf(view: RunView): RunScope {
  const byColumn = new Map<string, CellRecord[]>();
  for (const c of view.cells) byColumn.set(c.column, [...(byColumn.get(c.column) ?? []), c]);
  const measured = [...byColumn]
    .filter(([column]) => view.gatewayRuns.find((g) => g.column === column)?.status !== "not-run")
    .map(([column, cells]) => ({
      column,
      cells: cells.length,
      routes: new Set(cells.map((c) => c.routeId)).size,
    }))
    .sort((a, b) => a.column.localeCompare(b.column));
  return {
    measured,
    absent: view.gatewayRuns
      .filter((g) => g.status !== "ok")
      .sort((a, b) => a.column.localeCompare(b.column)),
    notMeasured: notMeasuredGroups(view, byColumn),
    preflightFailed: preflightFailedRoutes(view.cells),
    controls: positiveControlsOf(view),
  };
}

/** `usage.input_tokens: not present ...` → `not present ...` for a cell probing that field. */
export function reasonWithoutField(view: RunView, cell: CellRecord): string {
  const { field } = probeOfCell(view, cell);
  for (const prefix of [`${field}: `, `${cell.subject}: `]) {
    if (cell.reason.startsWith(prefix)) return cell.reason.slice(prefix.length);
  }
  return cell.reason;
}

function notMeasuredGroups(
  view: RunView,
  byColumn: ReadonlyMap<string, CellRecord[]>,
): NotMeasuredGroup[] {
  const groups = new Map<string, NotMeasuredGroup>();
  for (const cell of view.cells) {
    if (cell.verdict !== "not-run" && cell.verdict !== "error") continue;
    const reason = reasonWithoutField(view, cell);
    const key = `${cell.column}\u0000${cell.verdict}\u0000${reason}`;
    const g = groups.get(key) ?? {
      column: cell.column,
      verdict: cell.verdict,
      reason,
      cells: [],
      routes: [],
      wholeRoutes: [],
    };
    groups.set(key, g);
    g.cells.push(cell);
  }
  for (const g of groups.values()) {
    g.routes = [...new Set(g.cells.map((c) => c.routeId))].sort();
    const all = byColumn.get(g.column) ?? [];
    g.wholeRoutes = g.routes.filter(
      (route) =>
        all.filter((c) => c.routeId === route).length ===
        g.cells.filter((c) => c.routeId === route).length,
    );
  }
  return [...groups.values()].sort(
    (a, b) => b.cells.length - a.cells.length || a.column.localeCompare(b.column),
  );
}

const PREFLIGHT_CELL = new RegExp(`^${PREFLIGHT_REASON} \\(([^)]+)\\): (.*)$`, "s");

export function preflightFailedRoutes(cells: readonly CellRecord[]): PreflightFailedRoute[] {
  const routes = new Map<string, PreflightFailedRoute>();
  for (const cell of cells) {
    if (cell.verdict !== "not-run") continue;
    const match = PREFLIGHT_CELL.exec(cell.reason);
    if (!match) continue;
    const [, mode = "", reason = ""] = match;
    const key = `${cell.column}\u0000${cell.routeId}\u0000${reason}`;
    const route = routes.get(key) ?? {
      column: cell.column,
      route: cell.routeId,
      modes: [],
      reason,
      cells: 0,
    };
    routes.set(key, route);
    route.cells += 1;
    if (!route.modes.includes(mode)) route.modes.push(mode);
  }
  return [...routes.values()]
    .map((r) => ({ ...r, modes: r.modes.sort() }))
    .sort((a, b) => a.column.localeCompare(b.column) || a.route.localeCompare(b.route));
}
