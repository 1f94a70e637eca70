/**
 * The database side of `rescore`: read a run's attempts in pages with only the columns a
 * judge reads (raw rows, no per-row objects from the driver), and copy each attempt into the
 * new run with its new verdicts inside SQLite (INSERT ... SELECT by rowid), so the stored
 * wire bytes never travel through JavaScript twice.
 *
 * Measured on a 100,000-attempt run (7.5 KB of wire bytes per attempt): with SQLite's
 * default 2 MB page cache, interleaving the page reads with the copies spilled the cache
 * and cost four times the CPU of the same work with a large cache, and one transaction
 * holding every copy spilled anyway. `bulkCopySettings` raises the cache for the rescore's
 * connection; the caller commits every few thousand copies (see sweep/rescore.ts).
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

/** The raw row a page holds; the column order of PAGE_SQL. */
type PageRow = [
  rowid: number,
  column: string,
  routeId: string,
  probeId: string,
  mode: string,
  phase: string,
  attemptNo: number,
  clientRequest: string,
  forwarded: string,
  clientResponse: string,
  timings: string,
];

// NOT INDEXED: rowid order is the order attempts were written; the run_id index would sort
// by it anyway but read the table in index order, page by page, at random.
const PAGE_SQL = `SELECT rowid, "column", route_id, probe_id, mode, phase, attempt_no,
       client_request, forwarded, client_response, timings
  FROM attempts NOT INDEXED WHERE rowid > ? AND run_id = ? ORDER BY rowid LIMIT ?`;

/** A reader of a run's attempts, one page (rowid order) per call; an empty page is the end. */
export function attemptPageReader(
  store: ResultsStore,
  runId: string,
  pageSize = 1000,
): () => RescoreAttempt[] {
  const stmt = store.db.prepare(PAGE_SQL).raw(true);
  let after = 0;
  let done = false;
  return () => {
    if (done) return [];
    const rows = stmt.all(after, runId, pageSize) as PageRow[];
    if (rows.length < pageSize) done = true;
    const last = rows.at(-1);
    if (last) after = last[0];
    return rows.map(fromRow);
  };
}

function fromRow(row: PageRow): RescoreAttempt {
  return {
    rowid: row[0],
    key: { column: row[1], routeId: row[2], probeId: row[3], mode: row[4] as Mode },
    phase: row[5] as AttemptPhase,
    attemptNo: row[6],
    clientRequest: row[7],
    forwarded: row[8],
    clientResponse: row[9],
    ...totalMsOf(row[10]),
  };
}

/**
 * A run's attempts one at a time (rowid order). Each page is read whole before it is
 * yielded, so the caller may write to the database between rows: better-sqlite3 refuses
 * writes while a statement is still iterating.
 */
export function* iterateAttemptsForRescore(
  store: ResultsStore,
  runId: string,
  pageSize = 1000,
): Generator<RescoreAttempt> {
  const next = attemptPageReader(store, runId, pageSize);
  for (let page = next(); page.length > 0; page = next()) yield* page;
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

/** Page cache for a bulk copy, in KiB (SQLite's negative cache_size). */
const BULK_CACHE_KIB = 128 * 1024;

/** Raise the connection's page cache for a bulk copy; returns the function that restores it. */
export function bulkCopySettings(store: ResultsStore): () => void {
  const before = store.db.pragma("cache_size", { simple: true }) as number;
  store.db.pragma(`cache_size = -${BULK_CACHE_KIB}`);
  return () => {
    if (store.db.open) store.db.pragma(`cache_size = ${before}`);
  };
}

/** Remove a run that failed half-way (its attempts, cells, gateway rows and the run row). */
export function deleteRun(store: ResultsStore, runId: string): void {
  store.db.transaction(() => {
    for (const table of ["attempts", "cells", "gateway_runs"]) {
      store.db.prepare(`DELETE FROM ${table} WHERE run_id = ?`).run(runId);
    }
    store.db.prepare("DELETE FROM runs WHERE id = ?").run(runId);
  })();
}

function totalMsOf(text: string): { timings?: { totalMs: number } } {
  try {
    const timings = JSON.parse(text) as { totalMs?: unknown } | null;
    return typeof timings?.totalMs === "number" ? { timings: { totalMs: timings.totalMs } } : {};
  } catch {
    return {};
  }
}
