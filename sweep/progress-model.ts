/**
 * What the progress display knows, as pure functions: per column, the phase it is in and
 * what each phase did; for the sweep, the work done and the work still ahead, counted in
 * attempts, from which the overall bar and the ETA follow; and the text of each line.
 * progress.ts feeds it the sweep's events and draws it; the CLI's final summary reads it.
 *
 * The ETA: work is counted in attempts. The first pass is one attempt per planned cell; the
 * repeats `repeats - 1` per cell to repeat; a control leg one; an agent loop `LOOP_ATTEMPTS`.
 * Before a phase starts, its size is estimated from the first pass so far (the share of its
 * cells that were not clean, or silent defects, times the column's planned cells; the loops
 * from the column's routes); once it starts, its size is known. The ETA is the attempts still
 * ahead over the sweep's rate so far (attempts done / elapsed), never past the time budget.
 */
import { isClean, isSilentDefect, type VerdictKind } from "../probes/verdict.ts";

export const PHASES = [
  "starting",
  "first pass",
  "repeats",
  "control legs",
  "loops",
  "done",
] as const;
export type Phase = (typeof PHASES)[number];
/** The phases after the first pass, whose size is known only when they start. */
export type LaterPhase = "repeats" | "control legs" | "loops";

/** An agent loop is a few turns, each a request through the gateway: counted as this many attempts. */
export const LOOP_ATTEMPTS = 3;

export interface PhaseCount {
  /** Undefined until the phase starts: then estimated. */
  total?: number;
  done: number;
}

export interface ColumnProgress {
  label: string;
  phase: Phase;
  /** First-pass cells planned for this invocation. */
  cells: number;
  /** First-pass cells written, whatever their verdict (`not-run` and `error` included). */
  done: number;
  findings: number;
  /** Cells written `not-run` or `error`: not measured. */
  notMeasured: number;
  /** Cells left unrun because the sweep was interrupted. */
  neverRun: number;
  /** Attempted cells whose first verdict was not clean (the repeats' candidates). */
  nonClean: number;
  /** Attempted cells whose first verdict was a silent defect (the control legs' candidates). */
  silent: number;
  /** Attempts per non-clean cell (`--repeats`). */
  repeats: number;
  /** Agent loops expected before the loop phase says how many it runs. */
  loopsExpected: number;
  later: Record<LaterPhase, PhaseCount>;
}

export interface SweepProgressState {
  startedAt: number;
  /** The time budget from the start (`--minutes`), if any. */
  budgetMs?: number;
  columns: readonly ColumnProgress[];
}

export function newColumn(
  label: string,
  cells: number,
  plan: { repeats?: number; loops?: number } = {},
): ColumnProgress {
  return {
    label,
    phase: "first pass",
    cells,
    done: 0,
    findings: 0,
    notMeasured: 0,
    neverRun: 0,
    nonClean: 0,
    silent: 0,
    repeats: plan.repeats ?? 1,
    loopsExpected: plan.loops ?? 0,
    later: { repeats: { done: 0 }, "control legs": { done: 0 }, loops: { done: 0 } },
  };
}

/** A first-pass cell written with this verdict (`interrupted`: left unrun by Ctrl-C). */
export function withCell(
  col: ColumnProgress,
  verdict: VerdictKind,
  interrupted = false,
): ColumnProgress {
  const measured = verdict !== "not-run" && verdict !== "error";
  return {
    ...col,
    done: col.done + 1,
    findings: col.findings + (measured && !isClean(verdict) ? 1 : 0),
    notMeasured: col.notMeasured + (measured ? 0 : 1),
    neverRun: col.neverRun + (interrupted ? 1 : 0),
    nonClean: col.nonClean + (verdict !== "not-run" && !isClean(verdict) ? 1 : 0),
    silent: col.silent + (isSilentDefect(verdict) ? 1 : 0),
  };
}

/** A phase starts with `total` units (cells to repeat, control legs, loops). */
export function withPhase(col: ColumnProgress, phase: LaterPhase, total: number): ColumnProgress {
  return { ...col, phase, later: { ...col.later, [phase]: { total, done: 0 } } };
}

/** One unit of the current later phase finished. */
export function withStep(col: ColumnProgress): ColumnProgress {
  const phase = col.phase;
  if (phase !== "repeats" && phase !== "control legs" && phase !== "loops") return col;
  const count = col.later[phase];
  return { ...col, later: { ...col.later, [phase]: { ...count, done: count.done + 1 } } };
}

export function withEnd(col: ColumnProgress): ColumnProgress {
  return { ...col, phase: "done" };
}

/** The attempts one unit of a phase costs. */
function unitAttempts(col: ColumnProgress, phase: LaterPhase): number {
  if (phase === "repeats") return Math.max(0, col.repeats - 1);
  return phase === "loops" ? LOOP_ATTEMPTS : 1;
}

/** How many units a later phase has: known once started, else estimated from the first pass. */
export function phaseSize(col: ColumnProgress, phase: LaterPhase): number {
  const known = col.later[phase].total;
  if (known !== undefined) return known;
  if (col.phase === "done") return 0;
  if (phase === "loops") return col.loopsExpected;
  const attempted = col.done - col.notMeasured;
  if (attempted <= 0) return 0;
  const share = (phase === "repeats" ? col.nonClean : col.silent) / attempted;
  if (phase === "repeats" && col.repeats <= 1) return 0;
  return Math.round(share * (col.cells - col.notMeasured));
}

export function attemptsDone(col: ColumnProgress): number {
  const later = (["repeats", "control legs", "loops"] as const).reduce(
    (sum, p) => sum + col.later[p].done * unitAttempts(col, p),
    0,
  );
  return col.done - col.neverRun + later;
}

/** Attempts still ahead; the cells an interrupt left unrun stay ahead (the bar never says 100%). */
export function attemptsAhead(col: ColumnProgress): number {
  if (col.phase === "done") return col.neverRun;
  const later = (["repeats", "control legs", "loops"] as const).reduce(
    (sum, p) => sum + Math.max(0, phaseSize(col, p) - col.later[p].done) * unitAttempts(col, p),
    0,
  );
  return col.cells - col.done + col.neverRun + later;
}

export interface Overall {
  elapsedMs: number;
  /** Attempts done over done + ahead, 0..1. */
  fraction: number;
  /** Undefined until an attempt is done. */
  etaMs?: number;
  cells: number;
  cellsDone: number;
}

export function overallOf(state: SweepProgressState, now: number): Overall {
  const elapsedMs = Math.max(0, now - state.startedAt);
  let done = 0;
  let ahead = 0;
  let cells = 0;
  let cellsDone = 0;
  for (const col of state.columns) {
    done += attemptsDone(col);
    ahead += attemptsAhead(col);
    cells += col.cells;
    cellsDone += col.done - col.neverRun;
  }
  const fraction = done + ahead === 0 ? 0 : done / (done + ahead);
  const overall: Overall = { elapsedMs, fraction, cells, cellsDone };
  if (state.columns.length > 0 && state.columns.every((c) => c.phase === "done")) {
    return { ...overall, etaMs: 0 };
  }
  if (done === 0 || elapsedMs === 0) return overall;
  let etaMs = (ahead * elapsedMs) / done;
  if (state.budgetMs !== undefined)
    etaMs = Math.min(etaMs, Math.max(0, state.budgetMs - elapsedMs));
  return { ...overall, etaMs };
}

/** `45s`, `4m05s`, `1h02m`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The overall line's text after its bar: `42% · 812/1958 cells · 3 columns · elapsed 4m05s · ETA 5m30s`. */
export function overallText(state: SweepProgressState, now: number): string {
  const o = overallOf(state, now);
  const running = state.columns.filter((c) => c.phase !== "done").length;
  const eta = o.etaMs === undefined ? "ETA --" : `ETA ${formatDuration(o.etaMs)}`;
  return `${Math.floor(o.fraction * 100)}% · first pass ${o.cellsDone}/${o.cells} cells · ${running}/${plural(state.columns.length, "column")} running · elapsed ${formatDuration(o.elapsedMs)} · ${eta}`;
}

/** What the column is doing, for its line: `first pass 120/400 cells, 3 findings, 0 not measured`. */
export function columnText(col: ColumnProgress): string {
  const tally = `${plural(col.findings, "finding")}, ${col.notMeasured - col.neverRun} not measured`;
  const stopped = col.neverRun > 0 ? `, ${col.neverRun} never run (interrupted)` : "";
  const first = `${col.done - col.neverRun}/${col.cells} cells, ${tally}${stopped}`;
  switch (col.phase) {
    case "starting":
    case "first pass":
      return `first pass ${first}`;
    case "repeats": {
      const c = col.later.repeats;
      return `repeats ${c.done}/${c.total ?? 0} cells to ${col.repeats} attempts (first pass ${first})`;
    }
    case "control legs": {
      const c = col.later["control legs"];
      return `control legs ${c.done}/${c.total ?? 0} (first pass ${first})`;
    }
    case "loops": {
      const c = col.later.loops;
      return `agent loops ${c.done}/${c.total ?? 0} (first pass ${first})`;
    }
    case "done":
      return `${col.neverRun > 0 ? "stopped" : "done"}: ${first}`;
  }
}

/** The value and total of a column's bar: the current phase's units. */
export function columnBar(col: ColumnProgress): { value: number; total: number } {
  if (col.phase === "repeats" || col.phase === "control legs" || col.phase === "loops") {
    const c = col.later[col.phase];
    return { value: c.done, total: Math.max(1, c.total ?? 0) };
  }
  return { value: col.done, total: Math.max(1, col.cells) };
}

/** `direct@0: first pass 120/400 cells, ...`: a plain line for logs. */
export function plainLine(col: ColumnProgress): string {
  return `${col.label}: ${columnText(col)}`;
}

/** What an interrupted column did and did not do, one line. */
export function interruptedText(col: ColumnProgress): string {
  const judged = col.done - col.notMeasured;
  const parts = [
    `${judged} of ${col.cells} cells judged`,
    `${col.neverRun} never run`,
    ...(col.notMeasured - col.neverRun > 0
      ? [`${col.notMeasured - col.neverRun} not measured`]
      : []),
  ];
  for (const phase of ["repeats", "control legs", "loops"] as const) {
    const c = col.later[phase];
    if (c.total === undefined) parts.push(`${phase} not started`);
    else if (c.done < c.total) parts.push(`${phase} ${c.done} of ${c.total}`);
  }
  return parts.join(", ");
}
