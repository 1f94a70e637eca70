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
import { PER_RUN_TABLES } from "./delete-rows.ts";
import { type AttemptPhase, type CellKey, cellKeyString } from "./records.ts";
import type { Db } from "./schema.ts";
import type { ResultsStore } from "./store.ts";
import { verdictListInterner } from "./verdict-lists.ts";

/** One attempt of the run being rescored, in a cell of that run. */
export interface RescoreAttempt {
  /** The judgement's rowid (the attempt's `attempt_id`): the order a run was written in. */
  rowid: number;
  /** The rowid of the attempt's cell (`cellRowids`). */
  cell: number;
  phase: AttemptPhase;
  attemptNo: number;
}

/** The raw row a page holds; the column order of PAGE_SQL. */
type PageRow = [rowid: number, cell: number, phase: AttemptPhase, attemptNo: number];

/** The attempt belongs to a cell of its run (an attempt outside every cell is not rescored). */
const IN_A_CELL = `c.run_id = j.run_id AND c."column" = j."column" AND c.route_id = j.route_id
       AND c.probe_id = j.probe_id AND c.mode = j.mode`;

// NOT INDEXED: rowid order is the order attempts were written; the run_id index would sort
// by it anyway but read the table in index order, page by page, at random. CROSS JOIN keeps
// the judgements the outer loop (each finds its cell through the cells' unique index). Only
// numbers cross into JavaScript: the cell's rowid stands for its key (reading the four key
// strings of every attempt, and building its key string, cost more than the join). The
// bytes are not read here: whoever judges an attempt reads them (storedTextsReader), in a
// worker thread when there are workers, so this thread never holds or copies them.
const PAGE_SQL = `SELECT j.rowid, c.rowid, j.phase, j.attempt_no
  FROM judgements j NOT INDEXED CROSS JOIN cells c ON ${IN_A_CELL}
  WHERE j.rowid > ? AND j.run_id = ? ORDER BY j.rowid LIMIT ?`;

/** The rowids of a run's cells, by cell key (`cellKeyString`). */
export function cellRowids(store: ResultsStore, runId: string): Map<string, number> {
  const rows = store.db
    .prepare('SELECT rowid, "column", route_id, probe_id, mode FROM cells WHERE run_id = ?')
    .raw(true)
    .all(runId) as [number, string, string, string, CellKey["mode"]][];
  return new Map(
    rows.map(([rowid, column, routeId, probeId, mode]) => [
      cellKeyString({ column, routeId, probeId, mode }),
      rowid,
    ]),
  );
}

/**
 * What an attempt stored, as the stored texts (JSON, parsed by whoever judges them), with
 * the rowid of its judgement and the id of its verdict list.
 */
export interface StoredAttemptRow {
  rowid: number;
  /** The stored exchange's text. */
  exchange: string;
  /** The verdict list the attempt was given (its text: `StoredTextsReader.lists`). */
  verdictsId: number;
}

/**
 * Reads the stored texts a rescore judges, in one sequential read per batch: reading
 * attempt by attempt cost twice as much CPU (the per-statement overhead alone was ~9 µs an
 * attempt on the shared machine).
 */
export interface StoredTextsReader {
  /** The texts of a run's attempts whose rowids lie in [from, to], in rowid order. */
  attempts(runId: string, from: number, to: number): StoredAttemptRow[];
  /**
   * The texts of verdict lists, by id. Read apart from the attempts, each distinct list once
   * a batch: the repeats of a cell share lists, and joining the 2 KB list to every attempt's
   * row doubled the read (20 µs of CPU an attempt against 10, at load 12).
   */
  lists(ids: readonly number[]): Map<number, string>;
}

export function storedTextsReader(db: Db): StoredTextsReader {
  const attempts = db
    .prepare(
      `SELECT j.rowid, e.exchange, j.verdicts_id
       FROM judgements j
       JOIN exchanges e ON e.id = j.exchange_id
       WHERE j.rowid BETWEEN ? AND ? AND j.run_id = ? ORDER BY j.rowid`,
    )
    .raw(true);
  const lists = db
    .prepare("SELECT id, verdicts FROM verdict_lists WHERE id IN (SELECT value FROM json_each(?))")
    .raw(true);
  return {
    attempts: (runId, from, to) =>
      (attempts.all(from, to, runId) as [number, string, number][]).map((row) => ({
        rowid: row[0],
        exchange: row[1],
        verdictsId: row[2],
      })),
    lists: (ids) =>
      new Map(ids.length === 0 ? [] : (lists.all(JSON.stringify(ids)) as [number, string][])),
  };
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
    return rows.map((row) => ({ rowid: row[0], cell: row[1], phase: row[2], attemptNo: row[3] }));
  };
}

/**
 * Stores a rescore's judgements under `toRun`, each on its source attempt's exchange, in
 * the order they are given (rowid order).
 */
export interface JudgementWriter {
  /**
   * The judgements of `fromRun`'s attempts (in a cell) whose rowids lie in [from, to], each
   * on its source's verdict list: one statement for a run of attempts whose lists the lens
   * gave again. Writing attempt by attempt cost 60,000 instructions an attempt against
   * 23,000 (cachegrind, 9,182 attempts): the statement's overhead, and the key strings
   * bound from JavaScript instead of copied inside SQLite.
   */
  same(from: number, to: number): void;
  /** The judgement of attempt `rowid`, whose list the lens changed, on list `verdicts`. */
  changed(rowid: number, verdicts: string): void;
}

export function judgementWriter(
  store: ResultsStore,
  fromRun: string,
  toRun: string,
): JudgementWriter {
  const copy = (where: string, verdictsId: string) =>
    store.db.prepare(
      `INSERT INTO judgements (run_id, "column", route_id, probe_id, mode, phase, attempt_no,
         verdicts_id, exchange_id)
       SELECT @toRun, j."column", j.route_id, j.probe_id, j.mode, j.phase, j.attempt_no,
         ${verdictsId}, j.exchange_id
       FROM judgements j NOT INDEXED WHERE ${where}`,
    );
  const copyRange = copy(
    `j.rowid BETWEEN @from AND @to AND j.run_id = @fromRun
       AND EXISTS (SELECT 1 FROM cells c WHERE ${IN_A_CELL}) ORDER BY j.rowid`,
    "j.verdicts_id",
  );
  const copyOne = copy("j.rowid = @rowid", "@verdictsId");
  const verdictLists = verdictListInterner(store.db);
  return {
    same(from, to) {
      copyRange.run({ toRun, fromRun, from, to });
    },
    changed(rowid, verdicts) {
      copyOne.run({ toRun, rowid, verdictsId: verdictLists.idOf(verdicts) });
    },
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
    for (const table of PER_RUN_TABLES) {
      db.prepare(`DELETE FROM ${table} WHERE run_id = ?`).run(runId);
    }
    const dropExchange = db.prepare("DELETE FROM exchanges WHERE id = ?");
    for (const id of exchanges) dropExchange.run(id);
    const dropList = db.prepare("DELETE FROM verdict_lists WHERE id = ?");
    for (const id of verdictLists) dropList.run(id);
    db.prepare("DELETE FROM runs WHERE id = ?").run(runId);
  })();
}
