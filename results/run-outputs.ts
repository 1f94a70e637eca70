/**
 * The files a sweep leaves by default: `results/MATRIX.md` (the Markdown matrix) and
 * `results/summary.json` (the JSON summary). Both are views of the database; `report`
 * writes the same content on demand.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loopEvidenceRun } from "../loops/evidence-file.ts";
import { htmlReportOf } from "./html/build-html-report.ts";
import { type LoopsSummary, summarizeLoops } from "./loops-section.ts";
import { renderMarkdownReport } from "./markdown-report.ts";
import { loadReportFacts } from "./report-facts.ts";
import { withRigEvidence } from "./rig-evidence.ts";
import { type ColumnSummary, type RunSummary, summarizeRun } from "./run-summary.ts";
import { loadRunView, type RunView } from "./run-view.ts";
import { type ColumnSideFindings, sideFindingsOf } from "./side-findings.ts";
import type { ResultsStore } from "./store.ts";

export const DEFAULT_OUTPUT_DIR = "results";

/** The files `writeRunOutputs` writes in its folder (the CLI checks them before a sweep). */
export const RUN_OUTPUT_FILES = {
  matrix: "MATRIX.md",
  summary: "summary.json",
  html: "report.html",
} as const;

/** The Markdown matrix with the sections measured from stored attempts. */
export function markdownOf(store: ResultsStore, view: RunView): string {
  return renderMarkdownReport(withRigEvidence(store, loadReportFacts(store, view)));
}

/** The JSON summary: the run's counts, each column's side findings beside its counts (they
 * are not in them: results/side-findings.ts), and the loops when any ran. */
export interface JsonSummary extends Omit<RunSummary, "columns"> {
  columns: (ColumnSummary & { sideFindings: ColumnSideFindings })[];
  loops?: LoopsSummary;
}

export function runSummaryOf(view: RunView): JsonSummary {
  const counted = summarizeRun(view.run, view.gatewayRuns, view.cells);
  const side = sideFindingsOf(view.findings);
  const summary = {
    ...counted,
    columns: counted.columns.map((col) => ({
      ...col,
      sideFindings: side.get(col.column) ?? { cells: 0, findings: [] },
    })),
  };
  const loops = view.loops ?? [];
  return loops.length > 0
    ? { ...summary, loops: summarizeLoops(loopEvidenceRun(view.run), loops) }
    : summary;
}

export function summaryJson(view: RunView): string {
  return `${JSON.stringify(runSummaryOf(view), null, 2)}\n`;
}

/** Write a file, creating its folder; the write goes to a temp name first so a reader never sees half a matrix. */
export function writeOutputFile(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(temp, content);
  } catch (error) {
    rmSync(temp, { force: true }); // a full disk must not leave half a file behind
    throw error;
  }
  renameSync(temp, path);
}

export interface RunOutputPaths {
  matrix: string;
  summary: string;
  html: string;
}

/** Write MATRIX.md, summary.json and report.html for a run (the latest when no id is given). */
export function writeRunOutputs(
  store: ResultsStore,
  runId?: string,
  dir: string = DEFAULT_OUTPUT_DIR,
): RunOutputPaths {
  const view = loadRunView(store, runId);
  const paths = {
    matrix: join(dir, RUN_OUTPUT_FILES.matrix),
    summary: join(dir, RUN_OUTPUT_FILES.summary),
    html: join(dir, RUN_OUTPUT_FILES.html),
  };
  writeOutputFile(paths.matrix, markdownOf(store, view));
  writeOutputFile(paths.summary, summaryJson(view));
  writeOutputFile(paths.html, htmlReportOf(store, view.run.id));
  return paths;
}
