/**
 * A column's route preflight (route-preflight.ts) as column-run.ts runs it: every route
 * checked in the sweep's modes once the gateway is up, the failures said on the progress
 * line, and the cells of a route and mode that failed written `not-run` with the reason
 * before any cell is sent.
 */
import type { GatewayRoute } from "../gateways/adapter.ts";
import { unattemptedCell } from "./cell-record.ts";
import type { PlannedCell } from "./cells.ts";
import type { ColumnDeps, ColumnSettings } from "./column-run.ts";
import type { GatewaySession } from "./gateway-session.ts";
import type { ColumnMocks } from "./persona-mocks.ts";
import {
  doctorMockOf,
  preflightReason,
  preflightRoutes,
  type RoutePreflights,
} from "./route-preflight.ts";

export async function preflightColumn(
  session: GatewaySession,
  routes: readonly GatewayRoute[],
  mocks: ColumnMocks,
  settings: ColumnSettings,
  deps: Pick<ColumnDeps, "progress">,
  label: string,
): Promise<RoutePreflights> {
  const preflights = await preflightRoutes(
    session,
    routes,
    settings.modes,
    doctorMockOf(mocks),
    settings,
    () => !settings.signal.aborted && !settings.deadline.workExpired(),
  );
  for (const check of preflights.checks) {
    if (!check.preflight) continue;
    deps.progress.note(
      label,
      `${check.route} (${check.mode}) not swept, its preflight failed: ${check.preflight.reason}`,
    );
  }
  return preflights;
}

/** The cells to send: those of a route and mode that failed the preflight are written `not-run`. */
export function withoutPreflightFailures(
  cells: readonly PlannedCell[],
  preflights: RoutePreflights,
  settings: Pick<ColumnSettings, "runId">,
  deps: Pick<ColumnDeps, "writer" | "progress">,
  label: string,
  issueOf: (cell: PlannedCell) => string | undefined,
): PlannedCell[] {
  const swept: PlannedCell[] = [];
  for (const cell of cells) {
    const why = preflights.notRunReason(cell.probe, cell.route.id, cell.key.mode);
    if (why === undefined) {
      const failed = preflights.failure(cell.route.id, cell.key.mode);
      swept.push(
        failed ? { ...cell, routePreflight: preflightReason(cell.key.mode, failed) } : cell,
      );
      continue;
    }
    deps.writer.add({
      cell: unattemptedCell(settings.runId, cell, "not-run", why, issueOf(cell)),
      attempts: [],
    });
    deps.progress.cell(label, "not-run");
  }
  return swept;
}
