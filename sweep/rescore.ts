/**
 * `rescore RUN`: re-judge a run's stored bytes with today's lens, as a new run, starting no
 * gateway. Each attempt is rebuilt into the exchange the live sweep judged (same function,
 * exchangeFromWire) and judged again (rescore-judge.ts); cells are folded again from the new
 * verdicts. The new run's args name the run it rescored, so `diff` between the two shows
 * what the lens change moved.
 *
 * `rescoreRun` judges in this thread; `rescoreRunParallel` hands batches of attempts to
 * worker threads while this thread reads the next pages and stores judgements. Both
 * read in rowid order and consume judgements in that order, so they store the same rows.
 *
 * The run's agent loops (loops/) are copied to the new run as they were judged: the loop judge
 * is not the lens, and what each SDK made of a reply is not stored to be judged again.
 *
 * A new judgement points at its source attempt's exchange: the recorded bytes are stored
 * once, whatever the number of rescores (schema version 3, results/rescore-io.ts).
 * Judgements are committed every `commitEvery` attempts (one transaction holding a large
 * run's rows spills SQLite's cache). A failure part-way deletes
 * the new run; until the end the new run's status is `running`.
 */
import { availableParallelism } from "node:os";
import { loopEvidenceRun } from "../loops/evidence-file.ts";
import type { Verdict, VerdictKind } from "../probes/verdict.ts";
import { copyLoops, loopsOfRun } from "../results/loop-records.ts";
import { type CellRecord, cellKeyString } from "../results/records.ts";
import {
  attemptPageReader,
  bulkWriteSettings,
  cellRowids,
  copyGatewayRuns,
  deleteRun,
  type JudgementWriter,
  judgementWriter,
  type RescoreAttempt,
  storedTextsReader,
} from "../results/rescore-io.ts";
import { newRunId, type ResultsStore } from "../results/store.ts";
import { foldVerdicts } from "./determinism.ts";
import { judgeStoredJobs, type StoredJob, type StoredJudgement } from "./rescore-judge.ts";
import { RescoreWorkerPool } from "./rescore-pool.ts";

export interface RescoreResult {
  runId: string;
  fromRun: string;
  attempts: number;
  cells: number;
  /** Cells whose verdict changed. */
  changed: number;
  elapsedMs: number;
  /** Worker threads that judged (0: this thread did). */
  workers: number;
  /** Time inside the lens, summed over threads (with workers it overlaps elapsedMs). */
  lensMs: number;
}

export interface RescoreOptions {
  now?: Date;
  /** Attempts read (and, in parallel, sent to a worker) at a time. */
  batchSize?: number;
  /** Commit the new judgements every this many attempts. */
  commitEvery?: number;
}

export interface ParallelRescoreOptions extends RescoreOptions {
  /** Worker threads; default: `defaultRescoreWorkers()` (one per core, none on one core). */
  workers?: number;
  /** Below this many attempts the workers' start-up costs more than they save: judge here. */
  minAttemptsForWorkers?: number;
  /** Workers already started (the caller closes them); `workers` is then ignored. */
  pool?: RescoreWorkerPool;
}

interface CellTally {
  old: CellRecord;
  verdicts: Verdict[];
  control?: VerdictKind;
}

/** A page of attempts that belong to a cell of the run: each with its cell and its job. */
interface Page {
  attempts: RescoreAttempt[];
  tallies: CellTally[];
  jobs: StoredJob[];
}

/** One rescore in progress: what the judged attempts are folded into. */
class Rescore {
  readonly started = performance.now();
  readonly runId: string;
  readonly cells = new Map<string, CellTally>();
  /** The same tallies by the rowid of their cell (what a page of attempts names). */
  private readonly byRowid = new Map<number, CellTally>();
  private readonly fields: Map<string, string>;
  private readonly writer: JudgementWriter;
  private readonly restoreSettings: () => void;
  private uncommitted = 0;
  private lensMs = 0;
  attempts = 0;

  constructor(
    readonly store: ResultsStore,
    readonly fromRun: string,
    private readonly options: RescoreOptions,
  ) {
    const source = store.requireRun(fromRun);
    const now = options.now ?? new Date();
    this.runId = newRunId(now);
    const rowids = cellRowids(store, fromRun);
    for (const cell of store.cells(fromRun)) {
      const key = cellKeyString(cell);
      const tally: CellTally = { old: cell, verdicts: [] };
      this.cells.set(key, tally);
      const rowid = rowids.get(key);
      if (rowid !== undefined) this.byRowid.set(rowid, tally);
    }
    this.fields = new Map(
      store.probesOfRun(fromRun).map((p) => [`${p.probeId}|${p.definitionHash}`, p.field]),
    );
    // The run's agent loops are carried as they were judged (the loop judge is not the lens),
    // and their evidence files stay in the folder of the run whose loop phase wrote them.
    const carriesLoops = loopsOfRun(store.db, fromRun).length > 0;
    const loopsOf = carriesLoops ? { loopsOf: loopEvidenceRun(source) } : {};
    this.restoreSettings = bulkWriteSettings(store);
    store.db.exec("BEGIN");
    try {
      store.beginRun({
        id: this.runId,
        startedAt: now.toISOString(),
        gatecheckVersion: source.gatecheckVersion,
        ...(source.gitSha ? { gitSha: source.gitSha } : {}),
        args: { rescoreOf: fromRun, ...loopsOf },
        ...(source.shard ? { shard: source.shard } : {}),
      });
      copyGatewayRuns(store, fromRun, this.runId);
      copyLoops(store.db, fromRun, this.runId);
      this.writer = judgementWriter(store, fromRun, this.runId);
    } catch (error) {
      store.db.exec("ROLLBACK");
      this.restoreSettings();
      throw error;
    }
  }

  /** The attempts of the next page that belong to a cell of the run, with their jobs. */
  nextPage(read: () => RescoreAttempt[]): Page | undefined {
    const rows = read();
    if (rows.length === 0) return undefined;
    const page: Page = { attempts: [], tallies: [], jobs: [] };
    for (const attempt of rows) {
      const tally = this.byRowid.get(attempt.cell);
      if (!tally) continue;
      const { old } = tally;
      page.attempts.push(attempt);
      page.tallies.push(tally);
      page.jobs.push({
        rowid: attempt.rowid,
        probeId: old.probeId,
        attemptNo: attempt.attemptNo,
        client: old.clientDialect,
        backend: old.backendDialect,
        mode: old.mode,
        phase: attempt.phase,
        field: this.fields.get(`${old.probeId}|${old.definitionHash}`) ?? "",
      });
    }
    return page;
  }

  /**
   * Store a page's judgements in the order of its attempts: each run of attempts whose
   * verdict lists the lens gave again in one statement, a changed one by itself.
   */
  record(page: Page, judgements: readonly StoredJudgement[]): void {
    let sameFrom: number | undefined;
    let sameTo = 0;
    page.attempts.forEach((attempt, i) => {
      const judged = judgements[i];
      const tally = page.tallies[i];
      if (!judged || !tally)
        throw new Error(`rescore lost the judgement of attempt ${attempt.rowid}`);
      if (judged.changedVerdicts === undefined) {
        sameFrom ??= attempt.rowid;
        sameTo = attempt.rowid;
      } else {
        if (sameFrom !== undefined) this.writer.same(sameFrom, sameTo);
        sameFrom = undefined;
        this.writer.changed(attempt.rowid, judged.changedVerdicts);
      }
      if (attempt.phase === "control") tally.control = judged.verdict.verdict;
      else tally.verdicts.push(judged.verdict);
      this.lensMs += judged.lensMs;
    });
    if (sameFrom !== undefined) this.writer.same(sameFrom, sameTo);
    this.attempts += page.attempts.length;
    this.uncommitted += page.attempts.length;
    if (this.uncommitted >= (this.options.commitEvery ?? 5000)) {
      this.store.db.exec("COMMIT");
      this.store.db.exec("BEGIN");
      this.uncommitted = 0;
    }
  }

  finish(workers: number): RescoreResult {
    this.store.db.exec("COMMIT");
    this.restoreSettings();
    let changed = 0;
    const writer = this.store.cellWriter({ maxDelayMs: 0 });
    for (const tally of this.cells.values()) {
      const cell = refold(this.runId, tally);
      if (cell.verdict !== tally.old.verdict) changed += 1;
      writer.add({ cell, attempts: [] });
    }
    writer.close();
    this.store.finishRun(this.runId, "done");
    return {
      runId: this.runId,
      fromRun: this.fromRun,
      attempts: this.attempts,
      cells: this.cells.size,
      changed,
      elapsedMs: Math.round(performance.now() - this.started),
      workers,
      lensMs: Math.round(this.lensMs),
    };
  }

  /** Undo a rescore that failed part-way: the new run leaves no row behind. */
  abandon(): void {
    if (this.store.db.inTransaction) this.store.db.exec("ROLLBACK");
    this.restoreSettings();
    deleteRun(this.store, this.runId);
  }
}

/** Re-judge `fromRun` in this thread. */
export function rescoreRun(
  store: ResultsStore,
  fromRun: string,
  options: RescoreOptions | Date = {},
): RescoreResult {
  const settings = options instanceof Date ? { now: options } : options;
  const rescore = new Rescore(store, fromRun, settings);
  try {
    const read = attemptPageReader(store, fromRun, settings.batchSize ?? 1000);
    const readTexts = storedTextsReader(store.db);
    for (let page = rescore.nextPage(read); page; page = rescore.nextPage(read)) {
      rescore.record(page, judgeStoredJobs(fromRun, page.jobs, readTexts));
    }
    return rescore.finish(0);
  } catch (error) {
    rescore.abandon();
    throw error;
  }
}

/**
 * Below this many attempts, workers cost more than they save. On the shared 2-core machine
 * two workers take 0.5–1.4 s to start (bundle included, worker-bundle.ts) and then
 * add 15–25% to this thread's ~5,500 attempts a second: they pay for themselves from about
 * 20,000 attempts.
 */
export const MIN_ATTEMPTS_FOR_WORKERS = 20_000;

/**
 * One worker per core, where there are two or more. On one core a single worker only
 * judges what this thread would, plus the hand-over: on the 2-core machine one worker gave
 * 2,903–3,706 attempts/s where this thread alone gave 3,087–4,593 in the same minutes
 * (100,036 attempts, 1 Dec), about 90 µs more CPU an attempt.
 */
export function defaultRescoreWorkers(cores = availableParallelism()): number {
  return cores >= 2 ? cores : 0;
}

/**
 * Re-judge `fromRun` with worker threads doing the judging. Same rows as `rescoreRun`;
 * small runs are judged in this thread (`minAttemptsForWorkers`).
 */
export async function rescoreRunParallel(
  store: ResultsStore,
  fromRun: string,
  options: ParallelRescoreOptions = {},
): Promise<RescoreResult> {
  const workers = options.pool?.size ?? options.workers ?? defaultRescoreWorkers();
  const minAttempts = options.minAttemptsForWorkers ?? MIN_ATTEMPTS_FOR_WORKERS;
  // Workers read the bytes through their own connections: a database only this connection
  // sees (in memory) is judged here.
  const shared = store.path !== ":memory:" && store.path !== "";
  if (workers < 1 || !shared || store.countAttempts(fromRun) < minAttempts) {
    return rescoreRun(store, fromRun, options);
  }
  const rescore = new Rescore(store, fromRun, options);
  const pool = options.pool ?? new RescoreWorkerPool(workers);
  try {
    const read = attemptPageReader(store, fromRun, options.batchSize ?? 250);
    // Two batches per worker: one judged while the other crosses the thread boundary.
    const inFlight: { page: Page; judged: Promise<StoredJudgement[]> }[] = [];
    let exhausted = false;
    for (;;) {
      while (!exhausted && inFlight.length < 2 * pool.size) {
        const page = rescore.nextPage(read);
        if (!page) exhausted = true;
        else
          inFlight.push({
            page,
            judged: pool.judge(store.path, fromRun, page.jobs),
          });
      }
      const head = inFlight.shift();
      if (!head) break;
      rescore.record(head.page, await head.judged);
    }
    return rescore.finish(pool.size);
  } catch (error) {
    rescore.abandon();
    throw error;
  } finally {
    if (!options.pool) await pool.close();
  }
}

/** A cell with its verdict folded again; cells that had no attempts keep theirs. */
function refold(runId: string, tally: CellTally): CellRecord {
  const { old } = tally;
  const { controlVerdict: _oldControl, ...rest } = old;
  const base: CellRecord = {
    ...rest,
    runId,
    ...(tally.control ? { controlVerdict: tally.control } : {}),
  };
  if (tally.verdicts.length === 0)
    return old.controlVerdict && !tally.control
      ? { ...base, controlVerdict: old.controlVerdict }
      : base;
  const folded = foldVerdicts(tally.verdicts.map((v) => v.verdict));
  const representative = tally.verdicts.find((v) => v.verdict === folded.verdict);
  const { cause: _oldCause, ...withoutCause } = base;
  return {
    ...withoutCause,
    verdict: folded.verdict,
    reason: representative?.reason ?? old.reason,
    ...(representative?.cause ? { cause: representative.cause } : {}),
    runs: folded.n,
    counts: folded.counts,
    determinism: folded.k,
    stable: folded.stable,
  };
}
