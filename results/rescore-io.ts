/**
 * The database side of `rescore`: read a run's attempts in pages with only the columns a
 * judge reads (raw rows, no per-row objects from the driver), and store each new judgement
 * as a row of `judgements` that points at the exchange the source attempt points at, so the
 * recorded bytes are neither copied nor read twice (schema version 3).
 *
 * Measured on a 100,000-attempt run before version 3 (7.5 KB of wire bytes per attempt):
 * copying each attempt's bytes into the new run (INSERT ... SELECT by rowid) cost about
 * 80 µs an attempt, more than half the lens's time; with SQLite's default 2 MB page cache,
 * interleaving the page reads with the copies spilled the cache and cost four times that.
 * `bulkCopySettings` still raises the cache for the rescore's connection (the reads are
 * large), and the caller commits every few thousand rows (see sweep/rescore.ts).
 */
import type { Mode } from "../dialects/dialect.ts";
import type { AttemptPhase, CellKey } from "./records.ts";
import type { ResultsStore } from "./store.ts";
import { verdictListInterner } from "./verdict-lists.ts";

export interface RescoreAttempt {
  /** The judgement's rowid (the attempt's `attempt_id`): the order a run was written in. */
  rowid: number;
  /** The recorded bytes this attempt judged; the new judgement points at the same row. */
  exchangeId: number;
  /** The verdict list the attempt had, and its text: an unchanged list is not stored again. */
  verdictsId: number;
  verdicts: string;
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
  exchangeId: number,
  verdictsId: number,
  verdicts: string,
];

// NOT INDEXED: rowid order is the order attempts were written; the run_id index would sort
// by it anyway but read the table in index order, page by page, at random.
const PAGE_SQL = `SELECT j.rowid, j."column", j.route_id, j.probe_id, j.mode, j.phase, j.attempt_no,
       e.client_request, e.forwarded, e.client_response, e.timings, j.exchange_id,
       j.verdicts_id, v.verdicts
  FROM judgements j NOT INDEXED
  JOIN exchanges e ON e.id = j.exchange_id
  JOIN verdict_lists v ON v.id = j.verdicts_id
  WHERE j.rowid > ? AND j.run_id = ? ORDER BY j.rowid LIMIT ?`;

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
    exchangeId: row[11],
    verdictsId: row[12],
    verdicts: row[13],
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

/**
 * A function that stores `attempt`'s new judgement under `toRun`, on the same exchange, and
 * on the same verdict list when the lens gave the same text.
 */
export function judgementWriter(
  store: ResultsStore,
  toRun: string,
): (attempt: RescoreAttempt, verdictsJson: string) => void {
  const stmt = store.db.prepare(
    `INSERT INTO judgements (run_id, "column", route_id, probe_id, mode, phase, attempt_no,
       verdicts_id, exchange_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const verdictLists = verdictListInterner(store.db);
  return (attempt, verdictsJson) => {
    const { key } = attempt;
    const verdictsId =
      verdictsJson === attempt.verdicts ? attempt.verdictsId : verdictLists.idOf(verdictsJson);
    stmt.run(
      toRun,
      key.column,
      key.routeId,
      key.probeId,
      key.mode,
      attempt.phase,
      attempt.attemptNo,
      verdictsId,
      attempt.exchangeId,
    );
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

/**
 * Remove a run that failed half-way: its judgements, the exchanges and verdict lists no other
 * run's judgement points at (a rescored run shares its source's), cells, gateway rows and the
 * run row.
 */
export function deleteRun(store: ResultsStore, runId: string): void {
  const db = store.db;
  const onlyHere = (column: "exchange_id" | "verdicts_id") =>
    db
      .prepare(
        `SELECT DISTINCT j.${column} FROM judgements j WHERE j.run_id = ?
           AND NOT EXISTS (SELECT 1 FROM judgements o
                           WHERE o.${column} = j.${column} AND o.run_id <> ?)`,
      )
      .pluck()
      .all(runId, runId) as number[];
  db.transaction(() => {
    const exchanges = onlyHere("exchange_id");
    const verdictLists = onlyHere("verdicts_id");
    for (const table of ["judgements", "cells", "gateway_runs"]) {
      db.prepare(`DELETE FROM ${table} WHERE run_id = ?`).run(runId);
    }
    const dropExchange = db.prepare("DELETE FROM exchanges WHERE id = ?");
    for (const id of exchanges) dropExchange.run(id);
    const dropList = db.prepare("DELETE FROM verdict_lists WHERE id = ?");
    for (const id of verdictLists) dropList.run(id);
    db.prepare("DELETE FROM runs WHERE id = ?").run(runId);
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
