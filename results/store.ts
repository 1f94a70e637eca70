/**
 * The results store: the one door to the database for the sweep, `rescore` and the views.
 *
 * Writing a run (the sweep):
 *   const store = openStore("results/gatecheck.db");
 *   store.beginRun({ id: newRunId(), startedAt, gatecheckVersion, args, shard });
 *   store.putGatewayRun({ runId, gateway, version, column, status: "ok" });
 *   store.putProbes(probes);
 *   const writer = store.cellWriter();
 *   writer.add({ cell, attempts });         // batched; a unit is all-or-nothing
 *   writer.close(); store.finishRun(runId, "done"); store.close();
 * Resuming: `store.doneCells(runId)` lists the cells already written.
 * Reading back: `store.iterateAttempts(runId)` streams attempts, parsed; `rescore` reads and
 * writes through `rescore-io.ts`, which copies no bytes.
 */
import { randomBytes } from "node:crypto";
import type { Statement } from "better-sqlite3";
import { type CellWriter, type CellWriterOptions, createCellWriter } from "./cell-writer.ts";
import { DEFAULT_DB_PATH } from "./default-db-path.ts";
import { type DeletedRuns, deleteCells, deleteRuns } from "./delete-rows.ts";
import type {
  AttemptRecord,
  AttemptText,
  CellKey,
  CellRecord,
  DoneCell,
  ExchangeTexts,
  GatewayRunRecord,
  JudgementRef,
  ProbeRecord,
  RunRecord,
  RunStatus,
} from "./records.ts";
import { ResultsError } from "./results-error.ts";
import {
  ATTEMPT_COLUMNS,
  GATEWAY_RUN_COLUMNS,
  gatewayRunToRow,
  PROBE_COLUMNS,
  placeholders,
  probeToRow,
  quoted,
  RUN_COLUMNS,
  rowToAttempt,
  rowToAttemptText,
  rowToCell,
  rowToExchangeTexts,
  rowToGatewayRun,
  rowToJudgementRef,
  rowToProbe,
  rowToRun,
  runToRow,
} from "./row-mapping.ts";
import { requireRunId } from "./run-id.ts";
import { type Db, type OpenOptions, openDb } from "./schema.ts";

export { DEFAULT_DB_PATH };

/**
 * The attempt columns a reader maps: not `*`, since the view's side columns (client_request,
 * ...) are read out of each exchange's JSON for SQL users, which the store does not need.
 */
const ATTEMPT_SELECT = quoted(ATTEMPT_COLUMNS);

/** `2026-11-30T02-10-00Z-ab12`: sorts by start time, safe in file names. */
export function newRunId(now: Date = new Date(), suffix = randomBytes(2).toString("hex")): string {
  const stamp = now.toISOString().slice(0, 19).replaceAll(":", "-");
  return `${stamp}Z-${suffix}`;
}

type Row = Record<string, unknown>;

export class ResultsStore {
  /** Statements a report runs once per cell or attempt, prepared on first use. */
  #attemptsOfCell?: Statement;
  #verdictListText?: Statement;
  #exchangeTexts?: Statement;

  constructor(
    readonly db: Db,
    readonly path: string,
  ) {}

  beginRun(run: Omit<RunRecord, "status" | "finishedAt">): RunRecord {
    requireRunId(run.id, "a new run");
    const record: RunRecord = { ...run, status: "running" };
    try {
      this.db
        .prepare(`INSERT INTO runs (${quoted(RUN_COLUMNS)}) VALUES (${placeholders(RUN_COLUMNS)})`)
        .run(runToRow(record));
    } catch (error) {
      throw new ResultsError("bad-record", `run ${run.id}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return record;
  }

  /** Mark a run finished (`done`) or stopped early (`interrupted`); a resumed run goes back to running. */
  setRunStatus(
    runId: string,
    status: RunStatus,
    finishedAt: string | undefined = new Date().toISOString(),
  ): void {
    const info = this.db
      .prepare("UPDATE runs SET status = ?, finished_at = ? WHERE id = ?")
      .run(status, status === "running" ? null : (finishedAt ?? null), runId);
    if (info.changes === 0) throw new ResultsError("not-found", `no run ${runId} in ${this.path}`);
  }

  finishRun(runId: string, status: Exclude<RunStatus, "running"> = "done"): void {
    this.setRunStatus(runId, status);
  }

  /** Insert or replace a gateway's row for a run (a gateway can go from ok to error mid-run). */
  putGatewayRun(gatewayRun: GatewayRunRecord): void {
    this.db
      .prepare(
        `INSERT INTO gateway_runs (${quoted(GATEWAY_RUN_COLUMNS)}) VALUES (${placeholders(GATEWAY_RUN_COLUMNS)})
         ON CONFLICT (run_id, "column") DO UPDATE SET gateway = excluded.gateway,
         version = excluded.version, status = excluded.status, reason = excluded.reason,
         log_path = excluded.log_path`,
      )
      .run(gatewayRunToRow(gatewayRun));
  }

  /** Probes are keyed by (id, definition hash); an existing pair is left as it is. */
  putProbes(probes: readonly ProbeRecord[]): void {
    const insert = this.db.prepare(
      `INSERT OR IGNORE INTO probes (${quoted(PROBE_COLUMNS)}) VALUES (${placeholders(PROBE_COLUMNS)})`,
    );
    this.db.transaction(() => {
      for (const probe of probes) insert.run(probeToRow(probe));
    })();
  }

  cellWriter(options?: CellWriterOptions): CellWriter {
    return createCellWriter(this.db, options);
  }

  /** Cells to run again from their first attempt (`--resume` of an unfinished cell). */
  deleteCells(runId: string, keys: readonly CellKey[]): void {
    deleteCells(this.db, runId, keys);
  }

  /** Whole runs and what only they refer to (`gatecheck prune`). */
  deleteRuns(runIds: readonly string[]): DeletedRuns {
    return deleteRuns(this.db, runIds);
  }

  /** The cells of a run already in the database, for `--resume`. */
  doneCells(runId: string): DoneCell[] {
    return this.cells(runId).map((c) => ({
      column: c.column,
      routeId: c.routeId,
      probeId: c.probeId,
      mode: c.mode,
      verdict: c.verdict,
      runs: c.runs,
      stable: c.stable,
      controlVerdict: c.controlVerdict,
    }));
  }

  getRun(runId: string): RunRecord | undefined {
    requireRunId(runId, "the run asked for");
    const row = this.db.prepare("SELECT * FROM runs WHERE id = ?").get(runId) as Row | undefined;
    return row ? rowToRun(row) : undefined;
  }

  /** The run, or an error that names the database and the run. */
  requireRun(runId: string): RunRecord {
    const run = this.getRun(runId);
    if (!run) throw new ResultsError("not-found", `no run ${runId} in ${this.path}`);
    return run;
  }

  /** Runs, newest first (by start time, then id). */
  listRuns(): RunRecord[] {
    const rows = this.db
      .prepare("SELECT * FROM runs ORDER BY started_at DESC, id DESC")
      .all() as Row[];
    return rows.map(rowToRun);
  }

  latestRun(): RunRecord | undefined {
    return this.listRuns()[0];
  }

  gatewayRuns(runId: string): GatewayRunRecord[] {
    const rows = this.db
      .prepare('SELECT * FROM gateway_runs WHERE run_id = ? ORDER BY "column"')
      .all(runId) as Row[];
    return rows.map(rowToGatewayRun);
  }

  cells(runId: string): CellRecord[] {
    const rows = this.db
      .prepare('SELECT * FROM cells WHERE run_id = ? ORDER BY "column", route_id, probe_id, mode')
      .all(runId) as Row[];
    return rows.map(rowToCell);
  }

  /** The probe definitions a run's cells refer to. */
  probesOfRun(runId: string): ProbeRecord[] {
    const rows = this.db
      .prepare(
        `SELECT DISTINCT p.* FROM probes p JOIN cells c
         ON c.probe_id = p.probe_id AND c.definition_hash = p.definition_hash
         WHERE c.run_id = ? ORDER BY p.probe_id`,
      )
      .all(runId) as Row[];
    return rows.map(rowToProbe);
  }

  countAttempts(runId: string): number {
    const row = this.db
      .prepare("SELECT count(*) AS n FROM judgements WHERE run_id = ?")
      .get(runId) as { n: number };
    return row.n;
  }

  /** A run's attempts in cell order, parsed one at a time (constant memory). */
  *iterateAttempts(runId: string): Generator<AttemptRecord> {
    const stmt = this.db.prepare(
      `SELECT ${ATTEMPT_SELECT} FROM attempts WHERE run_id = ?
       ORDER BY "column", route_id, probe_id, mode, phase, attempt_no`,
    );
    for (const row of stmt.iterate(runId)) yield rowToAttempt(row as Row);
  }

  /** One cell's attempts (main, repeats, control), parsed: the bytes behind a verdict. */
  attemptsOfCell(runId: string, key: CellKey): AttemptRecord[] {
    // Prepared once: a report asks for every failure cell's attempts.
    this.#attemptsOfCell ??= this.db.prepare(
      `SELECT ${ATTEMPT_SELECT} FROM attempts WHERE run_id = ? AND "column" = ? AND route_id = ?
       AND probe_id = ? AND mode = ? ORDER BY phase, attempt_no`,
    );
    const rows = this.#attemptsOfCell.all(
      runId,
      key.column,
      key.routeId,
      key.probeId,
      key.mode,
    ) as Row[];
    return rows.map(rowToAttempt);
  }

  /**
   * The same cell across runs, newest first, matched by gateway name (not column, so a
   * version bump keeps the history), route, probe and mode. Cells of a changed probe
   * definition are included; compare `definitionHash` before comparing verdicts.
   */
  cellHistory(gateway: string, key: Omit<CellKey, "column">, limit = 30): CellRecord[] {
    const rows = this.db
      .prepare(
        `SELECT c.* FROM cells c
         JOIN runs r ON r.id = c.run_id
         JOIN gateway_runs g ON g.run_id = c.run_id AND g."column" = c."column"
         WHERE g.gateway = ? AND c.route_id = ? AND c.probe_id = ? AND c.mode = ?
         ORDER BY r.started_at DESC, r.id DESC LIMIT ?`,
      )
      .all(gateway, key.routeId, key.probeId, key.mode, limit) as Row[];
    return rows.map(rowToCell);
  }

  /**
   * A run's attempts with their JSON fields left as the stored text: for a caller that parses
   * only what it needs (or parses in worker threads). Same order as iterateAttempts.
   */
  *iterateAttemptTexts(runId: string): Generator<AttemptText> {
    const stmt = this.db.prepare(
      `SELECT ${ATTEMPT_SELECT} FROM attempts WHERE run_id = ?
       ORDER BY "column", route_id, probe_id, mode, phase, attempt_no`,
    );
    for (const row of stmt.iterate(runId)) yield rowToAttemptText(row as Row);
  }

  /**
   * A run's judged attempts without their texts, in iterateAttemptTexts' order: a reader that
   * shows one attempt per cell chooses here and reads only the chosen bytes (exchangeTexts).
   */
  judgementRefs(runId: string): JudgementRef[] {
    const rows = this.db
      .prepare(
        `SELECT "column", route_id, probe_id, mode, phase, attempt_no, verdicts_id, exchange_id
         FROM judgements WHERE run_id = ?
         ORDER BY "column", route_id, probe_id, mode, phase, attempt_no`,
      )
      .all(runId) as Row[];
    return rows.map(rowToJudgementRef);
  }

  /** A stored verdict list's text (a JSON array of verdicts), by its id. */
  verdictListText(id: number): string {
    this.#verdictListText ??= this.db
      .prepare("SELECT verdicts FROM verdict_lists WHERE id = ?")
      .pluck();
    const text = this.#verdictListText.get(id);
    if (typeof text !== "string")
      throw new ResultsError("not-found", `no verdict list ${id} in ${this.path}`);
    return text;
  }

  /** One stored exchange's texts (the wire bytes behind an attempt), by its id. */
  exchangeTexts(id: number): ExchangeTexts {
    this.#exchangeTexts ??= this.db.prepare(
      `SELECT status, timings, exchange, client_sdk FROM exchanges WHERE id = ?`,
    );
    const row = this.#exchangeTexts.get(id) as Row | undefined;
    if (!row) throw new ResultsError("not-found", `no exchange ${id} in ${this.path}`);
    return rowToExchangeTexts(row);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/**
 * Open (migrating when needed) a store for writing, creating the file unless `create` is
 * false: a command that adds to an existing run (rescore) must not leave an empty database
 * behind a mistyped path.
 */
export function openStore(
  path: string = DEFAULT_DB_PATH,
  options: { create?: boolean } = {},
): ResultsStore {
  return new ResultsStore(openDb(path, { create: options.create ?? true }), path);
}

/** Open an existing store read-only; a missing file is an error, not an empty database. */
export function openStoreReadonly(
  path: string = DEFAULT_DB_PATH,
  options: Omit<OpenOptions, "readonly"> = {},
): ResultsStore {
  return new ResultsStore(openDb(path, { ...options, readonly: true }), path);
}
