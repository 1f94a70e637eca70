/**
 * Rescore of a real run's stored bytes (a small sweep through `direct`): an unchanged lens
 * gives back every attempt's verdicts byte for byte; worker threads store exactly what the
 * main thread stores, in the same order; a corrupt attempt is an error naming it, and the
 * half-made run is removed.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { direct } from "../gateways/adapters/direct.ts";
import { loopEvidencePath } from "../loops/evidence-file.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import { loopsOfRun } from "../results/loop-records.ts";
import { renderMarkdownReport } from "../results/markdown-report.ts";
import { loadRunView } from "../results/run-view.ts";
import { openStore, type ResultsStore } from "../results/store.ts";
import { verdictsDigest } from "../results/verdict-lists.ts";
import { defaultRescoreWorkers, rescoreRun, rescoreRunParallel } from "./rescore.ts";
import { RescoreWorkerPool } from "./rescore-pool.ts";
import { runSweep } from "./run-sweep.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-rescore-"));
let store: ResultsStore;
let runId: string;
// One pool for the tests that use workers: a worker's start (tsx, the lens) is the slow part.
let pool: RescoreWorkerPool;

// Every client dialect, both modes, with tools, streams and failure probes among them.
const PROBE_IDS = [
  "oc-stop-string",
  "oc-temperature",
  "oc-seed",
  "am-tools-strict",
  "am-tool-choice-tool",
  "or-stream-tool-arguments-fragments",
  "oc-top-p",
  "am-header-anthropic-version",
];

beforeAll(async () => {
  const probes = CORPUS.filter((p) => PROBE_IDS.includes(p.id));
  expect(probes.map((p) => p.id).sort()).toEqual([...PROBE_IDS].sort());
  const result = await runSweep({
    columns: [{ adapter: direct, spec: { name: "direct", version: "0" } }],
    probes,
    modes: ["non-stream", "stream"],
    repeats: 1,
    minutes: 5,
    concurrency: 4,
    dbPath: join(dir, "gc.db"),
    outDir: dir,
    attemptTimeoutMs: 10_000,
    args: { test: true },
  });
  runId = result.runId;
  store = openStore(result.dbPath);
  pool = new RescoreWorkerPool(2);
}, 60_000);

afterAll(async () => {
  await pool?.close();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A run's attempts in rowid order, every stored column but the run id. */
function attemptRows(id: string): unknown[] {
  return store.db
    .prepare(
      `SELECT "column", route_id, probe_id, mode, phase, attempt_no, status, timings,
         client_request, forwarded, upstream_reply, client_response, verdicts, client_sdk
       FROM attempts WHERE run_id = ? ORDER BY attempt_id`,
    )
    .raw()
    .all(id);
}

function cellRows(id: string): unknown[] {
  return store.cells(id).map(({ runId: _run, ...cell }) => cell);
}

/** A copy of the sweep's database, for a test that changes it. */
function copyOfStore(name: string): ResultsStore {
  const file = join(dir, name);
  store.db.exec(`VACUUM INTO '${file}'`);
  return openStore(file);
}

/** As if an older lens had given another verdict list for the attempts on this one. */
function makeListStale(copy: ResultsStore, listId: number): void {
  copy.db
    .prepare("UPDATE verdict_lists SET verdicts = '[]', digest = ? WHERE id = ?")
    .run(verdictsDigest("[]"), listId);
}

describe("rescore", () => {
  it("gives back every stored verdict when the lens is unchanged", () => {
    const listsBefore = store.db.prepare("SELECT count(*) FROM verdict_lists").pluck().get();
    const rescored = rescoreRun(store, runId);
    expect(rescored).toMatchObject({ fromRun: runId, changed: 0, workers: 0 });
    expect(rescored.attempts).toBe(store.countAttempts(runId));
    expect(rescored.attempts).toBeGreaterThanOrEqual(PROBE_IDS.length);
    expect(attemptRows(rescored.runId)).toEqual(attemptRows(runId));
    expect(cellRows(rescored.runId)).toEqual(cellRows(runId));
    // The bytes are stored once: each new judgement points at its source attempt's exchange.
    const sharedExchanges = (id: string) =>
      store.db
        .prepare("SELECT exchange_id FROM judgements WHERE run_id = ? ORDER BY rowid")
        .pluck()
        .all(id);
    expect(sharedExchanges(rescored.runId)).toEqual(sharedExchanges(runId));
    // An unchanged lens gives the same lists: the rescore stored none.
    expect(store.db.prepare("SELECT count(*) FROM verdict_lists").pluck().get()).toBe(listsBefore);
    expect(store.getRun(rescored.runId)).toMatchObject({
      status: "done",
      args: { rescoreOf: runId },
    });
    expect(store.gatewayRuns(rescored.runId).map((g) => g.column)).toEqual(["direct@0"]);
  });

  it("carries the run's agent loops, their evidence still linked where the sweep wrote it", () => {
    const copy = copyOfStore("loops.db");
    try {
      const [first] = loopsOfRun(copy.db, runId);
      if (!first) throw new Error("the sweep ran no loop");
      // One loop broken, so the matrix links its bytes.
      copy.db
        .prepare(
          `UPDATE loops SET status = 'broke', turn = 2, cause = 'id-lost', reason = 'x'
           WHERE run_id = ? AND "column" = ? AND route_id = ? AND variant = ?`,
        )
        .run(runId, first.column, first.routeId, first.variant);
      const loops = (id: string) =>
        loopsOfRun(copy.db, id, true).map(({ runId: _run, ...loop }) => loop);
      const once = rescoreRun(copy, runId);
      const twice = rescoreRun(copy, once.runId);
      const file = loopEvidencePath(runId, first.column, first.routeId, first.variant);
      expect(existsSync(join(dir, file))).toBe(true);
      for (const rescored of [once, twice]) {
        expect(loops(rescored.runId)).toEqual(loops(runId));
        // A rescore of a rescore still names the run whose loop phase wrote the files.
        expect(copy.getRun(rescored.runId)?.args).toMatchObject({ loopsOf: runId });
        const matrix = renderMarkdownReport(loadRunView(copy, rescored.runId));
        expect(matrix).toContain(`([bytes](${file}))`);
      }
    } finally {
      copy.close();
    }
  });

  it("stores the same rows in the same order with worker threads", async () => {
    const inThread = rescoreRun(store, runId, { batchSize: 5, commitEvery: 3 });
    const parallel = await rescoreRunParallel(store, runId, {
      pool,
      minAttemptsForWorkers: 0,
      batchSize: 3,
      commitEvery: 4,
    });
    expect(parallel.workers).toBe(2);
    // The workers ran the bundled lens, not the slow-starting TypeScript entry.
    expect(pool.bundled).toBe(true);
    expect(parallel.attempts).toBe(inThread.attempts);
    expect(attemptRows(parallel.runId)).toEqual(attemptRows(inThread.runId));
    expect(cellRows(parallel.runId)).toEqual(cellRows(inThread.runId));
  }, 60_000);

  it("stores a verdict list the lens now gives differently, and reuses the others", async () => {
    const stale = copyOfStore("stale.db");
    try {
      const listId = stale.db
        .prepare("SELECT max(verdicts_id) FROM judgements WHERE run_id = ?")
        .pluck()
        .get(runId) as number;
      makeListStale(stale, listId);
      const listsBefore = stale.db.prepare("SELECT count(*) FROM verdict_lists").pluck().get();
      const rescored = await rescoreRunParallel(stale, runId, {
        pool,
        minAttemptsForWorkers: 0,
        batchSize: 3,
      });
      // Every attempt has today's verdicts again, as in the untouched database...
      const verdictsOf = (db: typeof store.db, id: string) =>
        db
          .prepare(
            `SELECT verdicts FROM attempts WHERE run_id = ?
             ORDER BY "column", route_id, probe_id, mode, phase, attempt_no`,
          )
          .pluck()
          .all(id);
      expect(verdictsOf(stale.db, rescored.runId)).toEqual(verdictsOf(store.db, runId));
      // ...with one new list stored for them, and the stale one left to the old run.
      expect(stale.db.prepare("SELECT count(*) FROM verdict_lists").pluck().get()).toBe(
        Number(listsBefore) + 1,
      );
    } finally {
      stale.close();
    }
  }, 60_000);

  it("in this thread too: rescores only attempts in a cell, and stores a changed list", () => {
    const copy = copyOfStore("orphan.db");
    try {
      // An attempt of the run whose cell is not in the run, between two that are.
      const middle = copy.db
        .prepare("SELECT rowid FROM judgements WHERE run_id = ? ORDER BY rowid LIMIT 1 OFFSET 3")
        .pluck()
        .get(runId) as number;
      copy.db
        .prepare(`UPDATE judgements SET probe_id = 'no-such-probe' WHERE rowid = ?`)
        .run(middle);
      // And a list an older lens wrote differently, for the attempt after it.
      const listId = copy.db
        .prepare("SELECT verdicts_id FROM judgements WHERE rowid > ? ORDER BY rowid LIMIT 1")
        .pluck()
        .get(middle) as number;
      makeListStale(copy, listId);
      const rescored = rescoreRun(copy, runId, { batchSize: 4 });
      const inCells = (db: typeof store.db, id: string, probe: string) =>
        db
          .prepare(
            `SELECT "column", route_id, probe_id, mode, phase, attempt_no, exchange_id, verdicts
             FROM attempts WHERE run_id = ? AND probe_id <> ? ORDER BY attempt_id`,
          )
          .raw(true)
          .all(id, probe);
      expect(rescored.attempts).toBe(store.countAttempts(runId) - 1);
      expect(inCells(copy.db, rescored.runId, "")).toEqual(
        inCells(copy.db, runId, "no-such-probe").map((row, i) => {
          // Today's lens gives the list the untouched database has.
          const fresh = inCells(store.db, runId, "")[i < 3 ? i : i + 1] as unknown[];
          return [...(row as unknown[]).slice(0, 7), fresh[7]];
        }),
      );
    } finally {
      copy.close();
    }
  });

  it("names a corrupt attempt and leaves no half-made run, in either thread", async () => {
    const corrupt = copyOfStore("corrupt.db");
    try {
      const rowid = corrupt.db
        .prepare("SELECT max(attempt_id) FROM attempts WHERE run_id = ?")
        .pluck()
        .get(runId) as number;
      corrupt.db
        .prepare(
          `UPDATE exchanges SET exchange = '{"route": '
           WHERE id = (SELECT exchange_id FROM judgements WHERE rowid = ?)`,
        )
        .run(rowid);
      const runsBefore = corrupt.listRuns().map((r) => r.id);
      const attemptsBefore = corrupt.db.prepare("SELECT count(*) FROM attempts").pluck().get();
      const shared = () =>
        corrupt.db
          .prepare("SELECT (SELECT count(*) FROM exchanges), (SELECT count(*) FROM verdict_lists)")
          .raw(true)
          .get();
      const sharedBefore = shared();
      const named = new RegExp(
        `attempt ${rowid} \\(.*\\) of run ${runId}: its exchange is not JSON`,
      );
      expect(() => rescoreRun(corrupt, runId, { commitEvery: 2 })).toThrow(named);
      await expect(
        rescoreRunParallel(corrupt, runId, {
          pool,
          minAttemptsForWorkers: 0,
          batchSize: 2,
          commitEvery: 2,
        }),
      ).rejects.toThrow(named);
      expect(corrupt.listRuns().map((r) => r.id)).toEqual(runsBefore);
      expect(corrupt.db.prepare("SELECT count(*) FROM attempts").pluck().get()).toBe(
        attemptsBefore,
      );
      // The abandoned run shared the source's exchanges and lists: they are all still there.
      expect(shared()).toEqual(sharedBefore);
      expect(corrupt.db.prepare("SELECT count(*) FROM gateway_runs").pluck().get()).toBe(
        runsBefore.length,
      );
    } finally {
      corrupt.close();
    }
  }, 60_000);

  it("by default judges with one worker per core, and in this thread on a one-core machine", () => {
    expect(defaultRescoreWorkers(1)).toBe(0);
    expect(defaultRescoreWorkers(2)).toBe(2);
    expect(defaultRescoreWorkers(8)).toBe(8);
  });
});
