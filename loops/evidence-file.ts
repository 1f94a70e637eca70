/**
 * Where a loop's evidence is written: `<out>/runs/<run-id>/<column>/loops/<route>--<variant>.json`,
 * beside the column's gateway log and mock records (the column's work folder, as
 * sweep/column-run.ts names it), so the matrix links each break to its bytes. The database's
 * `loops.evidence` holds the same JSON.
 */
import { join } from "node:path";

const unsafe = /[^A-Za-z0-9._@+-]+/g;

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
  return join("runs", runId, column.replaceAll("/", "_"), loopEvidenceFile(routeId, variant));
}
