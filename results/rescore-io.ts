/**
 * The database side of `rescore`: stream a run's attempts with only the columns a judge
 * reads, and copy each attempt into the new run with its new verdicts inside SQLite
 * (INSERT ... SELECT by rowid), so the stored wire bytes never travel through JavaScript
 * twice.
 */
import type { Mode } from "../dialects/dialect.ts";
import type { AttemptPhase, CellKey } from "./records.ts";
import type { ResultsStore } from "./store.ts";

export interface RescoreAttempt {
  rowid: number;
  key: CellKey;
  phase: AttemptPhase;
  attemptNo: number;
  clientRequest: string;
  forwarded: string;
  clientResponse: string;
  /** The client's total wait, from the stored timings (failure probes judge it). */
  timings?: { totalMs: number };
}

type Row = Record<string, unknown>;

/**
 * A run's attempts in pages of `pageSize` rows (rowid order). Each page is read whole before
 * it is yielded, so the caller may write to the database between rows: better-sqlite3
 * refuses writes while a statement is still iterating.
 */
export function* iterateAttemptsForRescore(
  store: ResultsStore,
  runId: string,
  pageSize = 2000,
): Generator<RescoreAttempt> {
  const stmt = store.db.prepare(
    `SELECT rowid, "column", route_id, probe_id, mode, phase, attempt_no,
            client_request, forwarded, client_response, timings
     FROM attempts NOT INDEXED WHERE rowid > ? AND run_id = ? ORDER BY rowid LIMIT ?`,
  );
  let after = 0;
  for (;;) {
    const rows = stmt.all(after, runId, pageSize) as Row[];
    if (rows.length === 0) return;
    for (const row of rows) {
      after = Number(row.rowid);
      yield {
        rowid: after,
        key: {
          column: String(row.column),
          routeId: String(row.route_id),
          probeId: String(row.probe_id),
          mode: String(row.mode) as Mode,
        },
        phase: String(row.phase) as AttemptPhase,
        attemptNo: Number(row.attempt_no),
        clientRequest: String(row.client_request),
        forwarded: String(row.forwarded),
        clientResponse: String(row.client_response),
        ...totalMsOf(row.timings),
      };
    }
  }
}

/** A function that copies attempt `rowid` into `toRun` with `verdictsJson` as its verdicts. */
export function attemptCopier(
  store: ResultsStore,
  toRun: string,
): (rowid: number, verdictsJson: string) => void {
  const stmt = store.db.prepare(
    `INSERT INTO attempts (run_id, "column", route_id, probe_id, mode, phase, attempt_no, status,
       timings, client_request, forwarded, upstream_reply, client_response, verdicts, client_sdk)
     SELECT ?, "column", route_id, probe_id, mode, phase, attempt_no, status,
       timings, client_request, forwarded, upstream_reply, client_response, ?, client_sdk
     FROM attempts WHERE rowid = ?`,
  );
  return (rowid, verdictsJson) => {
    stmt.run(toRun, verdictsJson, rowid);
  };
}

/** The gateway rows of `fromRun`, as they were, under `toRun`. */
export function copyGatewayRuns(store: ResultsStore, fromRun: string, toRun: string): void {
  store.db
    .prepare(
      `INSERT INTO gateway_runs (run_id, gateway, version, "column", status, reason, log_path)
       SELECT ?, gateway, version, "column", status, reason, log_path FROM gateway_runs WHERE run_id = ?`,
    )
    .run(toRun, fromRun);
}

function totalMsOf(text: unknown): { timings?: { totalMs: number } } {
  try {
    const timings = JSON.parse(String(text)) as { totalMs?: unknown } | null;
    return typeof timings?.totalMs === "number" ? { timings: { totalMs: timings.totalMs } } : {};
  } catch {
    return {};
  }
}
