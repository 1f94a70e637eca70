/**
 * What `gatecheck sweep` prints when it ends (stdout): per column what it did, the run and
 * its wall time, what was written, and for an interrupted run exactly what was not done
 * (cells never run, phases not finished, per column) and the command that resumes it. The
 * counts come from the progress model (sweep/progress-model.ts) of this invocation.
 */
import {
  type ColumnProgress,
  formatDuration,
  interruptedText,
  type SweepProgressState,
} from "../../sweep/progress-model.ts";
import type { SweepResult } from "../../sweep/run-sweep.ts";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function unfinished(col: ColumnProgress): boolean {
  if (col.neverRun > 0 || col.done < col.cells) return true;
  return (["repeats", "control legs", "loops"] as const).some((p) => {
    const c = col.later[p];
    return c.total === undefined || c.done < c.total;
  });
}

function columnLine(
  column: SweepResult["columns"][number],
  col: ColumnProgress | undefined,
  interrupted: boolean,
): string {
  const why = column.reason ? ` (${column.reason})` : "";
  if (!col) return `${column.label}: ${column.status}, ${column.cells} cells planned${why}`;
  if (interrupted && column.status === "ok" && unfinished(col)) {
    return `${column.label}: interrupted: ${interruptedText(col)}`;
  }
  const judged = col.done - col.notMeasured;
  return `${column.label}: ${column.status}, ${col.cells} cells: ${judged} judged, ${col.notMeasured} not measured, ${plural(col.findings, "finding")}${why}`;
}

export function sweepSummary(
  result: SweepResult,
  progress: SweepProgressState | undefined,
  wallMs: number,
  resume?: string,
): string {
  const interrupted = result.status === "interrupted";
  const byLabel = new Map(progress?.columns.map((c) => [c.label, c]));
  const lines = result.columns.map((c) => columnLine(c, byLabel.get(c.label), interrupted));
  lines.push(`run ${result.runId} ${result.status}`, `wall time: ${formatDuration(wallMs)}`);
  if (interrupted) {
    const cols = [...byLabel.values()];
    const neverRun = cols.reduce((a, c) => a + c.neverRun, 0);
    const planned = cols.reduce((a, c) => a + c.cells, 0);
    const judged = cols.reduce((a, c) => a + c.done - c.notMeasured, 0);
    lines.push(
      `done: ${judged} of ${planned} cells judged; not done: ${plural(neverRun, "cell")} never run (the matrix counts them not measured)`,
    );
  }
  lines.push(
    `matrix: ${result.matrixPath}`,
    `html: ${result.htmlPath}`,
    `summary: ${result.summaryPath}`,
    `database: ${result.dbPath}`,
  );
  if (resume) lines.push(`resume with: ${resume}`);
  return `${lines.join("\n")}\n`;
}
