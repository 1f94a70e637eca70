/**
 * `diff` read from a database: both runs' views, and for a side finding new in the later run
 * the verdict the earlier run gave that subject on the same cell (its main attempt), which
 * decides whether it is a regression (run-diff-findings.ts).
 */
import type { VerdictKind } from "../probes/verdict.ts";
import type { CellRecord } from "./records.ts";
import { diffRuns, type RunDiff } from "./run-diff.ts";
import { loadRunView, type RunView } from "./run-view.ts";
import type { ResultsStore } from "./store.ts";

/** The verdict `runId`'s main attempt of a cell gave a subject, if its list holds one. */
export function subjectVerdictReader(
  store: ResultsStore,
): (cell: CellRecord, subject: string) => VerdictKind | undefined {
  const stmt = store.db
    .prepare(
      `SELECT json_extract(e.value, '$.verdict')
       FROM judgements j JOIN verdict_lists v ON v.id = j.verdicts_id, json_each(v.verdicts) e
       WHERE j.run_id = ? AND j."column" = ? AND j.route_id = ? AND j.probe_id = ? AND j.mode = ?
         AND j.phase = 'main' AND json_extract(e.value, '$.subject') = ?
       LIMIT 1`,
    )
    .pluck();
  return (cell, subject) =>
    (stmt.get(cell.runId, cell.column, cell.routeId, cell.probeId, cell.mode, subject) as
      | VerdictKind
      | undefined) ?? undefined;
}

/** The diff of two stored runs (earlier first), or of two views already loaded. */
export function loadRunDiff(
  store: ResultsStore,
  earlier: string | RunView,
  later: string | RunView,
): RunDiff {
  const a = typeof earlier === "string" ? loadRunView(store, earlier) : earlier;
  const b = typeof later === "string" ? loadRunView(store, later) : later;
  return diffRuns(a, b, { verdictBefore: subjectVerdictReader(store) });
}
