import { describe, expect, it } from "vitest";
import type { VerdictKind } from "../probes/verdict.ts";
import {
  attemptsAhead,
  attemptsDone,
  type ColumnProgress,
  columnText,
  formatDuration,
  interruptedText,
  LOOP_ATTEMPTS,
  newColumn,
  overallOf,
  overallText,
  phaseSize,
  withCell,
  withEnd,
  withPhase,
  withStep,
} from "./progress-model.ts";

function cells(col: ColumnProgress, verdicts: readonly VerdictKind[]): ColumnProgress {
  return verdicts.reduce((c, v) => withCell(c, v), col);
}

const repeat = <T>(n: number, x: T): T[] => Array.from({ length: n }, () => x);

describe("phase accounting", () => {
  it("estimates the repeats and control legs ahead from the first pass so far", () => {
    // 10 of 100 cells done: 2 silent defects, 1 rejected, 7 clean.
    const col = cells(newColumn("x@1", 100, { repeats: 3, loops: 4 }), [
      "dropped",
      "mangled",
      "rejected",
      ...repeat(7, "preserved" as const),
    ]);
    expect(phaseSize(col, "repeats")).toBe(30); // 3/10 of 100
    expect(phaseSize(col, "control legs")).toBe(20); // 2/10 of 100
    expect(phaseSize(col, "loops")).toBe(4);
    expect(attemptsDone(col)).toBe(10);
    // 90 first-pass cells + 30 cells × 2 more attempts + 20 legs + 4 loops × LOOP_ATTEMPTS
    expect(attemptsAhead(col)).toBe(90 + 60 + 20 + 4 * LOOP_ATTEMPTS);
  });

  it("cells not measured are left out of the estimate, and no repeats when N is 1", () => {
    const col = cells(newColumn("x@1", 10, { repeats: 1 }), [
      "not-run",
      "not-run",
      "dropped",
      "preserved",
    ]);
    expect(phaseSize(col, "repeats")).toBe(0);
    expect(phaseSize(col, "control legs")).toBe(4); // 1/2 of the 8 cells that may run
    expect(col.findings).toBe(1);
    expect(col.notMeasured).toBe(2);
  });

  it("a phase that starts replaces its estimate with its size, and steps count toward it", () => {
    let col = cells(newColumn("x@1", 4, { repeats: 3 }), [
      "dropped",
      ...repeat(3, "preserved" as const),
    ]);
    col = withPhase(col, "repeats", 1);
    expect(columnText(col)).toBe(
      "repeats 0/1 cells to 3 attempts (first pass 4/4 cells, 1 finding, 0 not measured)",
    );
    expect(attemptsAhead(col)).toBe(2 + 1); // the repeat's 2 attempts + 1 estimated control leg
    col = withStep(col);
    col = withPhase(col, "control legs", 0);
    col = withPhase(col, "loops", 2);
    col = withStep(col);
    expect(attemptsDone(col)).toBe(4 + 2 + LOOP_ATTEMPTS);
    expect(attemptsAhead(col)).toBe(LOOP_ATTEMPTS);
    expect(columnText(col)).toBe(
      "agent loops 1/2 (first pass 4/4 cells, 1 finding, 0 not measured)",
    );
    col = withEnd(col);
    expect(attemptsAhead(col)).toBe(0);
    expect(columnText(col)).toBe("done: 4/4 cells, 1 finding, 0 not measured");
  });
});

describe("overall bar and ETA", () => {
  it("counts the phases still ahead: the ETA is what is left at the rate so far", () => {
    // 10 of 100 done in 10 s, 30% not clean at 3 repeats: 90 + 60 + 0 attempts ahead.
    const col = cells(newColumn("x@1", 100, { repeats: 3 }), [
      ...repeat(3, "rejected" as const),
      ...repeat(7, "preserved" as const),
    ]);
    const o = overallOf({ startedAt: 0, columns: [col] }, 10_000);
    expect(o.etaMs).toBe(150_000);
    expect(o.fraction).toBeCloseTo(10 / 160);
    // A first-pass-only ETA would have said 90 s.
  });

  it("adds up columns, and never says more than the time budget left", () => {
    const a = cells(newColumn("a@1", 10), repeat(5, "preserved"));
    const b = cells(newColumn("b@1", 10), repeat(5, "preserved"));
    const state = { startedAt: 0, columns: [a, b] };
    expect(overallOf(state, 10_000).etaMs).toBe(10_000);
    expect(overallOf({ ...state, budgetMs: 14_000 }, 10_000).etaMs).toBe(4_000);
    expect(overallText(state, 10_000)).toBe(
      "50% · first pass 10/20 cells · 2/2 columns running · elapsed 10s · ETA 10s",
    );
  });

  it("has no ETA before the first attempt, and 0 when nothing is ahead", () => {
    const fresh = newColumn("a@1", 10);
    expect(overallOf({ startedAt: 0, columns: [fresh] }, 5_000).etaMs).toBeUndefined();
    expect(overallText({ startedAt: 0, columns: [fresh] }, 5_000)).toContain("ETA --");
    expect(overallOf({ startedAt: 0, columns: [withEnd(fresh)] }, 5_000).etaMs).toBe(0);
  });

  it("formats durations", () => {
    expect(formatDuration(45_400)).toBe("45s");
    expect(formatDuration(245_000)).toBe("4m05s");
    expect(formatDuration(3_720_000)).toBe("1h02m");
  });
});

describe("an interrupted column", () => {
  it("says what was judged, what never ran, and which phases did not start or finish", () => {
    let col = newColumn("x@1", 6, { repeats: 3 });
    col = cells(col, ["dropped", "preserved", "error"]);
    col = withCell(withCell(withCell(col, "not-run", true), "not-run", true), "not-run", true);
    expect(interruptedText(col)).toBe(
      "2 of 6 cells judged, 3 never run, 1 not measured, repeats not started, control legs not started, loops not started",
    );
    expect(columnText(col)).toBe(
      "first pass 3/6 cells, 1 finding, 1 not measured, 3 never run (interrupted)",
    );
    // The work the interrupt skipped is not work done: the bar stays at half, not 100%.
    expect(overallOf({ startedAt: 0, columns: [withEnd(col)] }, 1000)).toMatchObject({
      cellsDone: 3,
      cells: 6,
      fraction: 0.5,
      etaMs: 0,
    });
    expect(columnText(withEnd(col))).toBe(
      "stopped: 3/6 cells, 1 finding, 1 not measured, 3 never run (interrupted)",
    );
    col = withStep(withPhase(col, "repeats", 2));
    expect(interruptedText(col)).toContain("repeats 1 of 2, control legs not started");
  });
});
