/**
 * Where a loop's evidence is written: `<out>/runs/<run-id>/<column>/loops/<route>--<variant>.json`,
 * beside the column's gateway log and mock records (the column's work folder, as
 * sweep/column-run.ts names it), so the matrix links each break to its bytes. The database's
 * `loops.evidence` holds the same JSON.
 */
import { join } from "node:path";
import { isRunId } from "../results/run-id.ts";

const unsafe = /[^A-Za-z0-9._@+-]+/g;

/** A column's folder in its run's folder: its label as one folder name (`/` is not one). */
export function columnFolder(label: string): string {
  return label.replaceAll("/", "_");
}

/** Relative to the column's work folder. */
export function loopEvidenceFile(routeId: string, variant: string): string {
  return join("loops", `${routeId.replace(unsafe, "_")}--${variant.replace(unsafe, "_")}.json`);
}

/** Relative to the run outputs folder (where MATRIX.md is). */
export function loopEvidencePath(
  runId: string,
  column: string,
  routeId: string,
  variant: string,
): string {
  return join("runs", runId, columnFolder(column), loopEvidenceFile(routeId, variant));
}

/**
 * The run whose loop phase wrote a run's evidence files: a rescore carries its source's loops
 * (sweep/rescore.ts) and names that run in its args as `loopsOf`; any other run wrote its own.
 */
export function loopEvidenceRun(run: { id: string; args: unknown }): string {
  const args = run.args as { loopsOf?: unknown } | null | undefined;
  // A link into another run's folder only by a run id (a merged database's args are data).
  return typeof args?.loopsOf === "string" && isRunId(args.loopsOf) ? args.loopsOf : run.id;
}
