/**
 * The phases of one gateway column's cells (column-run.ts starts and stops the column around
 * them): (1) every cell once; (2) non-clean cells repeated to N attempts, folded to k of N;
 * (3) the control leg for silent defects over the gateway's native route for that backend.
 * Each cell is written as soon as a phase finishes it, so an interrupted run keeps what it
 * did and `--resume` continues without duplicates. In every phase the cells whose probe waits
 * on a timer run in lanes of their own (cells.ts `waitsOnTimer`), beside the others, on a
 * gateway that gives them request slots of their own (gateway-session.ts `timerSlots`).
 */
import type { GatewayRoute } from "../gateways/adapter.ts";
import { isClean, isSilentDefect, type Verdict } from "../probes/verdict.ts";
import { type AttemptPlan, mainLeg } from "./attempt.ts";
import { attemptRecord, cellRecord, unattemptedCell } from "./cell-record.ts";
import type { PlannedCell } from "./cells.ts";
import type { ColumnDeps, ColumnSettings } from "./column-run.ts";
import { controlLeg, nativeRouteFor } from "./control-leg.ts";
import { type GatewaySession, NOT_WANTED } from "./gateway-session.ts";
import { forEachLimitedApart } from "./pool.ts";

/**
 * Cells in progress per request slot: a cell waiting on its judgement (in the judging
 * worker, judge-thread.ts) holds no slot, so more cells than slots keep the gateway busy.
 * Measured through `direct` (docs/sweep.md, Performance): 4 × 8 cells over 8 slots gave
 * 5–10% more cells/s than 8 cells holding their slot to the end (ahead in 27 of 38 runs).
 */
export const CELLS_PER_SLOT = 4;

/** The reason of a cell the sweep was stopped before (Ctrl-C): not measured, run on resume. */
export const INTERRUPTED_REASON = "interrupted: the sweep was stopped before this cell ran";

/** Whether another attempt may start: not after Ctrl-C, nor once the work budget is spent. */
function wantedWhileTimeLeft(settings: ColumnSettings): () => boolean {
  return () => !settings.signal.aborted && !settings.deadline.workExpired();
}

export interface CellState {
  cell: PlannedCell;
  verdicts: Verdict[];
  knownIssue?: string;
}

/**
 * Run `work` over a phase's items: where the gateway gives the cells that wait on a timer
 * request slots of their own, those cells run in lanes of their own, as many as those slots,
 * so they never hold the lanes of the cells that keep the gateway busy.
 */
function forEachCell<T>(
  items: readonly T[],
  cellOf: (item: T) => PlannedCell,
  session: Pick<GatewaySession, "timerSlots" | "waitsOnTimer">,
  settings: ColumnSettings,
  work: (item: T) => Promise<void>,
): Promise<void> {
  return forEachLimitedApart(
    items,
    (item) => session.waitsOnTimer(cellOf(item).probe),
    { rest: settings.concurrency * CELLS_PER_SLOT, apart: session.timerSlots },
    work,
  );
}

export async function mainPhase(
  planned: readonly PlannedCell[],
  session: GatewaySession,
  settings: ColumnSettings,
  deps: ColumnDeps,
  label: string,
  issueOf: (cell: PlannedCell) => string | undefined,
): Promise<CellState[]> {
  const states: CellState[] = [];
  const { runId } = settings;
  const stillWanted = wantedWhileTimeLeft(settings);
  await forEachCell(
    planned,
    (cell) => cell,
    session,
    settings,
    async (cell) => {
      const knownIssue = issueOf(cell);
      const outcome = stillWanted()
        ? await session.attempt(
            cell.route,
            mainLeg(cell.probe, cell.key.mode, cell.routePreflight),
            stillWanted,
          )
        : NOT_WANTED;
      if (outcome === NOT_WANTED) {
        // Written so the matrix counts it not measured; --resume runs `not-run` cells again.
        const interrupted = settings.signal.aborted;
        deps.writer.add({
          cell: unattemptedCell(
            runId,
            cell,
            "not-run",
            interrupted ? INTERRUPTED_REASON : "budget: the sweep's time ran out",
            knownIssue,
          ),
          attempts: [],
        });
        deps.progress.cell(label, "not-run", interrupted);
        return;
      }
      if (!outcome) {
        deps.writer.add({
          cell: unattemptedCell(runId, cell, "error", `gateway ${session.deadReason}`, knownIssue),
          attempts: [],
        });
        deps.progress.cell(label, "error");
        return;
      }
      const state: CellState = {
        cell,
        verdicts: [outcome.verdict],
        ...(knownIssue ? { knownIssue } : {}),
      };
      states.push(state);
      deps.writer.add({
        cell: cellRecord({ runId, ...state }),
        attempts: [attemptRecord(runId, cell.key, "main", 1, outcome)],
      });
      deps.progress.cell(label, outcome.verdict.verdict);
    },
  );
  return states;
}

export async function repeatPhase(
  states: readonly CellState[],
  session: GatewaySession,
  settings: ColumnSettings,
  deps: ColumnDeps,
  label: string,
): Promise<void> {
  const nonClean =
    settings.repeats <= 1 ? [] : states.filter((s) => !isClean(s.verdicts[0]?.verdict ?? "error"));
  const stillWanted = wantedWhileTimeLeft(settings);
  if (stillWanted()) deps.progress.phase?.(label, "repeats", nonClean.length);
  if (settings.repeats <= 1) return;
  if (nonClean.length > 0 && stillWanted()) {
    deps.progress.note(
      label,
      `repeating ${nonClean.length} non-clean cells to ${settings.repeats} attempts`,
    );
  }
  await forEachCell(
    nonClean,
    (state) => state.cell,
    session,
    settings,
    async (state) => {
      const attempts = [];
      for (let n = 2; n <= settings.repeats; n++) {
        if (!stillWanted()) break;
        const outcome = await session.attempt(
          state.cell.route,
          mainLeg(state.cell.probe, state.cell.key.mode, state.cell.routePreflight),
          stillWanted,
        );
        if (!outcome || outcome === NOT_WANTED) break;
        state.verdicts.push(outcome.verdict);
        attempts.push(attemptRecord(settings.runId, state.cell.key, "repeat", n, outcome));
      }
      if (attempts.length > 0) {
        deps.writer.add({ cell: cellRecord({ runId: settings.runId, ...state }), attempts });
      }
      if (attempts.length === settings.repeats - 1) deps.progress.step?.(label);
    },
  );
}

/** The control leg a silent defect of this cell gets: its native route and plan, if any. */
export function controlPlanOf(
  cell: PlannedCell,
  routes: readonly GatewayRoute[],
): { native: GatewayRoute; plan: AttemptPlan } | undefined {
  const native = nativeRouteFor(routes, cell.route.backend);
  if (!native || native.id === cell.route.id) return undefined;
  const plan = controlLeg(cell.probe, cell.key.mode, native);
  return plan ? { native, plan } : undefined;
}

export async function controlPhase(
  states: readonly CellState[],
  routes: readonly GatewayRoute[],
  session: GatewaySession,
  settings: ColumnSettings,
  deps: ColumnDeps,
  label: string,
): Promise<void> {
  const candidates = states.flatMap((state) => {
    if (!isSilentDefect(cellRecord({ runId: settings.runId, ...state }).verdict)) return [];
    const control = controlPlanOf(state.cell, routes);
    return control ? [{ state, ...control }] : [];
  });
  const stillWanted = wantedWhileTimeLeft(settings);
  if (stillWanted()) deps.progress.phase?.(label, "control legs", candidates.length);
  if (candidates.length > 0 && stillWanted()) {
    deps.progress.note(label, `control legs for ${candidates.length} silent defects`);
  }
  await forEachCell(
    candidates,
    (c) => c.state.cell,
    session,
    settings,
    async (candidate) => {
      const { state, native, plan } = candidate;
      if (!stillWanted()) return;
      const outcome = await session.attempt(native, plan, stillWanted);
      if (!outcome || outcome === NOT_WANTED) return;
      deps.writer.add({
        cell: cellRecord({
          runId: settings.runId,
          ...state,
          controlVerdict: outcome.verdict.verdict,
        }),
        attempts: [attemptRecord(settings.runId, state.cell.key, "control", 1, outcome)],
      });
      deps.progress.step?.(label);
    },
  );
}
