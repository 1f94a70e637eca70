import { expect, it } from "vitest";
import {
  type ColumnProgress,
  newColumn,
  withCell,
  withEnd,
  withPhase,
  withStep,
} from "../../sweep/progress-model.ts";
import type { SweepResult } from "../../sweep/run-sweep.ts";
import { sweepSummary } from "./sweep-progress.ts";

const PATHS = {
  matrixPath: "results/MATRIX.md",
  htmlPath: "results/report.html",
  summaryPath: "results/summary.json",
  dbPath: "results/gatecheck.db",
  judgedInWorker: 0,
};

function finished(label: string): ColumnProgress {
  let col = newColumn(label, 3, { repeats: 3 });
  col = withCell(withCell(withCell(col, "dropped"), "preserved"), "not-run");
  col = withStep(withPhase(col, "repeats", 1));
  col = withStep(withPhase(col, "control legs", 1));
  col = withPhase(col, "loops", 0);
  return withEnd(col);
}

it("a finished run: per column what it judged, the wall time, and every file written", () => {
  const result: SweepResult = {
    runId: "r1",
    status: "done",
    columns: [
      { label: "direct@0", status: "ok", cells: 3 },
      { label: "ccr@2", status: "not-run", reason: "binary ccr not on PATH", cells: 0 },
    ],
    ...PATHS,
  };
  const progress = { startedAt: 0, columns: [finished("direct@0")] };
  expect(sweepSummary(result, progress, 754_000)).toBe(
    [
      "direct@0: ok, 3 cells: 2 judged, 1 not measured, 1 finding",
      "ccr@2: not-run, 0 cells planned (binary ccr not on PATH)",
      "run r1 done",
      "wall time: 12m34s",
      "matrix: results/MATRIX.md",
      "html: results/report.html",
      "summary: results/summary.json",
      "database: results/gatecheck.db",
      "",
    ].join("\n"),
  );
});

it("an interrupted run: what was judged and never run per column, never 'ok, N cells'", () => {
  let stopped = newColumn("direct@0", 5, { repeats: 3 });
  stopped = withCell(withCell(stopped, "dropped"), "preserved");
  for (let i = 0; i < 3; i++) stopped = withCell(stopped, "not-run", true);
  stopped = withEnd(stopped);
  const result: SweepResult = {
    runId: "r2",
    status: "interrupted",
    columns: [
      { label: "direct@0", status: "ok", cells: 5 },
      { label: "lossy@1", status: "ok", cells: 3 },
    ],
    ...PATHS,
  };
  const text = sweepSummary(
    result,
    { startedAt: 0, columns: [stopped, finished("lossy@1")] },
    65_000,
    "npx gatecheck sweep --resume r2",
  );
  expect(text).toBe(
    [
      "direct@0: interrupted: 2 of 5 cells judged, 3 never run, repeats not started, control legs not started, loops not started",
      "lossy@1: ok, 3 cells: 2 judged, 1 not measured, 1 finding",
      "run r2 interrupted",
      "wall time: 1m05s",
      "done: 4 of 8 cells judged; not done: 3 cells never run (the matrix counts them not measured)",
      "matrix: results/MATRIX.md",
      "html: results/report.html",
      "summary: results/summary.json",
      "database: results/gatecheck.db",
      "resume with: npx gatecheck sweep --resume r2",
      "",
    ].join("\n"),
  );
});
