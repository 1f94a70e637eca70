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
 * `bulkWriteSettings` raises the cache for the rescore's connection (the reads are
 * large), and the caller commits every few thousand rows (see sweep/rescore.ts).
 */
import type { Mode } from "../dialects/dialect.ts";
import type { AttemptPhase, CellKey } from "./records.ts";
import type { Db } from "./schema.ts";
import type { ResultsStore } from "./store.ts";
import { verdictListInterner } from "./verdict-lists.ts";

/** One attempt of the run being rescored: its place, and the ids of what it stored. */
export interface RescoreAttempt {
  /** The judgement's rowid (the attempt's `attempt_id`): the order a run was written in. */
  rowid: number;
  /** The recorded bytes this attempt judged; the new judgement points at the same row. */
  exchangeId: number;
  /** The verdict list the attempt had: an unchanged list is not stored again. */
  verdictsId: number;
  key: CellKey;
  phase: AttemptPhase;
  attemptNo: number;
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
  exchangeId: number,
  verdictsId: number,
];

// NOT INDEXED: rowid order is the order attempts were written; the run_id index would sort
// by it anyway but read the table in index order, page by page, at random. The bytes are
// not read here: whoever judges an attempt reads them (storedTextsReader), in a worker
// thread when there are workers, so this thread never holds or copies them.
const PAGE_SQL = `SELECT rowid, "column", route_id, probe_id, mode, phase, attempt_no,
       exchange_id, verdicts_id
  FROM judgements NOT INDEXED WHERE rowid > ? AND run_id = ? ORDER BY rowid LIMIT ?`;

/**
 * What an attempt stored, as the stored texts (JSON, parsed by whoever judges them), with
 * the rowid of its judgement.
 */
export interface StoredAttemptRow {
  rowid: number;
  clientRequest: string;
  forwarded: string;
  clientResponse: string;
  timings: string;
  /** The verdict list the attempt was given. */
  verdicts: string;
}

/**
 * A reader of the stored texts of a run's attempts whose rowids lie in [from, to], in rowid
 * order. One sequential read per batch: reading attempt by attempt cost twice as much CPU
 * (the per-statement overhead alone was ~9 µs an attempt on the shared machine).
 */
export type StoredTextsReader = (runId: string, from: number, to: number) => StoredAttemptRow[];

export function storedTextsReader(db: Db): StoredTextsReader {
  const stmt = db
    .prepare(
      `SELECT j.rowid, e.client_request, e.forwarded, e.client_response, e.timings, v.verdicts
       FROM judgements j
       JOIN exchanges e ON e.id = j.exchange_id
       JOIN verdict_lists v ON v.id = j.verdicts_id
       WHERE j.rowid BETWEEN ? AND ? AND j.run_id = ? ORDER BY j.rowid`,
    )
    .raw(true);
  return (runId, from, to) =>
    (stmt.all(from, to, runId) as [number, string, string, string, string, string][]).map(
      (row) => ({
        rowid: row[0],
        clientRequest: row[1],
        forwarded: row[2],
        clientResponse: row[3],
        timings: row[4],
        verdicts: row[5],
      }),
    );
}

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
    exchangeId: row[7],
    verdictsId: row[8],
  };
}

/**
 * A function that stores `attempt`'s new judgement under `toRun`, on the same exchange, and
 * on the same verdict list when the lens gave the same text (`changedVerdicts` undefined).
 */
export function judgementWriter(
  store: ResultsStore,
  toRun: string,
): (attempt: RescoreAttempt, changedVerdicts: string | undefined) => void {
  const stmt = store.db.prepare(
    `INSERT INTO judgements (run_id, "column", route_id, probe_id, mode, phase, attempt_no,
       verdicts_id, exchange_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const verdictLists = verdictListInterner(store.db);
  return (attempt, changedVerdicts) => {
    const { key } = attempt;
    const verdictsId =
      changedVerdicts === undefined ? attempt.verdictsId : verdictLists.idOf(changedVerdicts);
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

/** Page cache for a bulk write, in KiB (SQLite's negative cache_size). */
const BULK_CACHE_KIB = 128 * 1024;

/**
 * Settings for a bulk write on the store's connection; returns the function that restores
 * them. A large page cache (the reads are large), and no automatic checkpoint: by default
 * every commit that finds the WAL over 1,000 pages copies it back into the database file,
 * and during a rescore that was half of the time spent committing. The restore runs one
 * passive checkpoint instead (it never waits for readers).
 */
export function bulkWriteSettings(store: ResultsStore): () => void {
  const db = store.db;
  const cache = db.pragma("cache_size", { simple: true }) as number;
  const autocheckpoint = db.pragma("wal_autocheckpoint", { simple: true }) as number;
  db.pragma(`cache_size = -${BULK_CACHE_KIB}`);
  db.pragma("wal_autocheckpoint = 0");
  return () => {
    if (!db.open) return;
    db.pragma(`cache_size = ${cache}`);
    db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
    if (!db.inTransaction) db.pragma("wal_checkpoint(PASSIVE)");
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
