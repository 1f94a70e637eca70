/**
 * `gatecheck export`: one stored attempt written out as an exchange file. A stored attempt is
 * an exchange already (the shape `check` reads), so the file is the stored exchange with a
 * note saying where it came from.
 */
import type { WireExchange } from "../dialects/wire/exchange.ts";
import { ResultsError } from "../results/results-error.ts";
import { openStoreReadonly, type ResultsStore } from "../results/store.ts";

/** An attempt by its `attempt_id` (the `attempts` and `findings` views' column). */
export interface AttemptIdSelection {
  attemptId: number;
}

export interface ExportSelection {
  run?: string;
  column: string;
  route: string;
  probe: string;
  mode: "stream" | "non-stream";
  phase: string;
  attempt: number;
}

/** Reads the selected attempt from the database and returns the exchange file's object. */
export function exportExchange(
  dbPath: string,
  selection: ExportSelection | AttemptIdSelection,
): WireExchange {
  const store = openStoreReadonly(dbPath);
  try {
    const sel = "attemptId" in selection ? byAttemptId(store, dbPath, selection) : selection;
    const runId = sel.run ?? store.latestRun()?.id;
    if (!runId) throw new ResultsError("not-found", `${dbPath}: no run stored`);
    const key = { column: sel.column, routeId: sel.route, probeId: sel.probe, mode: sel.mode };
    const cell = store
      .cells(runId)
      .find(
        (c) =>
          c.column === key.column &&
          c.routeId === key.routeId &&
          c.probeId === key.probeId &&
          c.mode === key.mode,
      );
    if (!cell) {
      throw new ResultsError(
        "not-found",
        `${dbPath}: run ${runId} has no cell ${JSON.stringify(key)}; list cells with gatecheck query "SELECT * FROM cells WHERE run_id = '${runId}'"`,
      );
    }
    const attempt = store
      .attemptsOfCell(runId, key)
      .find((a) => a.phase === sel.phase && a.attemptNo === sel.attempt);
    if (!attempt) {
      throw new ResultsError(
        "not-found",
        `${dbPath}: cell ${JSON.stringify(key)} of run ${runId} has no ${sel.phase} attempt ${sel.attempt}`,
      );
    }
    const note =
      `Recorded ${sel.column} ${sel.route} ${sel.mode}, probe ${sel.probe}, run ${runId}` +
      ` (${sel.phase} attempt ${sel.attempt}) against the gatecheck mock; credentials redacted by the recorder.`;
    const { note: _stored, ...exchange } = attempt.exchange;
    return { note, ...exchange };
  } finally {
    store.close();
  }
}

/** The cell and attempt an `attempt_id` names (a judgement's rowid), with its run. */
function byAttemptId(
  store: ResultsStore,
  dbPath: string,
  sel: AttemptIdSelection,
): ExportSelection & { run: string } {
  const row = store.db
    .prepare(
      `SELECT run_id, "column", route_id, probe_id, mode, phase, attempt_no
       FROM judgements WHERE rowid = ?`,
    )
    .get(sel.attemptId) as
    | {
        run_id: string;
        column: string;
        route_id: string;
        probe_id: string;
        mode: "stream" | "non-stream";
        phase: string;
        attempt_no: number;
      }
    | undefined;
  if (!row) {
    throw new ResultsError(
      "not-found",
      `${dbPath}: no attempt with attempt_id ${sel.attemptId}; list them with gatecheck query "SELECT attempt_id, run_id, probe_id FROM attempts"`,
    );
  }
  return {
    run: row.run_id,
    column: row.column,
    route: row.route_id,
    probe: row.probe_id,
    mode: row.mode,
    phase: row.phase,
    attempt: row.attempt_no,
  };
}
