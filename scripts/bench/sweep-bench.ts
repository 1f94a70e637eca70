/**
 * Whole-pipeline benchmark of the sweep through `direct` (no gateway), then `rescore`.
 *
 * Sweep: cells per second of the whole run (start, every cell, report), and of its steady
 * part (first cell done to last cell done), with the process's CPU time per cell. Baseline:
 * the sweep's own client requests (path and body, from the database) sent again to a fresh
 * mock with the same client and concurrency, with no staging, judging or storing, after a
 * warm-up round, best of three: what the round trips alone cost on this machine now. The
 * harness overhead per cell is the difference, in wall time and in CPU time.
 *
 * Rescore: the run grown to --attempts attempts by copying its rows, re-judged in this thread
 * and with worker threads (each into a new run, both checked to change no verdict), with
 * the share of time inside the lens.
 *
 * The machine is shared: the load average is printed with each figure, and CPU times are
 * the figures to compare between runs.
 * Its flags: `--help`.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { bytesBuffer } from "../../dialects/wire/bytes.ts";
import type { WireRequest } from "../../dialects/wire/messages.ts";
import { direct } from "../../gateways/adapters/direct.ts";
import { startMock } from "../../mock-upstream/index.ts";
import { CORPUS } from "../../probes/corpus/index.ts";
import { openStore, type ResultsStore } from "../../results/store.ts";
import { sendRequest } from "../../sweep/http-client.ts";
import { forEachLimited } from "../../sweep/pool.ts";
import { type RescoreResult, rescoreRun, rescoreRunParallel } from "../../sweep/rescore.ts";
import { runSweep } from "../../sweep/run-sweep.ts";
import { benchArgs, numberFlag, usageError } from "./bench-args.ts";

const USAGE = `
Usage: npx tsx scripts/bench/sweep-bench.ts [options]

  --attempts N     attempts the run is grown to for rescoring (default 100000)
  --concurrency N  the sweep's concurrent cells (default 8)
  --rescore WAY    both, thread or workers (default both)
  --workers N      worker threads of the rescore (default: the cores, ${availableParallelism()})
  -h, --help       this text
`;

const { values } = benchArgs(USAGE, {
  attempts: { type: "string", default: "100000" },
  concurrency: { type: "string", default: "8" },
  rescore: { type: "string", default: "both" },
  workers: { type: "string", default: String(availableParallelism()) },
});
const TARGET_ATTEMPTS = numberFlag(USAGE, "attempts", values.attempts, { min: 1, integer: true });
const CONCURRENCY = numberFlag(USAGE, "concurrency", values.concurrency, {
  min: 1,
  integer: true,
});
const WORKERS = numberFlag(USAGE, "workers", values.workers, { min: 1, integer: true });
if (!["both", "thread", "workers"].includes(values.rescore)) {
  usageError(USAGE, `--rescore: expected both, thread or workers, got ${values.rescore}`);
}
const dir = mkdtempSync(join(tmpdir(), "gatecheck-sweep-bench-"));

const load = () => `load ${loadavg()[0]?.toFixed(2)}`;
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

interface Sent {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** The sweep's client requests as it sent them (credential values are stored redacted). */
function sentRequests(store: ResultsStore, runId: string): Sent[] {
  const rows = store.db
    .prepare(
      "SELECT json_extract(exchange, '$.clientRequest') FROM attempts WHERE run_id = ? ORDER BY attempt_id",
    )
    .pluck()
    .all(runId) as string[];
  return rows.map((text) => {
    const request = JSON.parse(text) as WireRequest;
    return {
      path: request.path,
      headers: Object.fromEntries(request.headers),
      body: bytesBuffer(request.body).toString("utf8"),
    };
  });
}

/** Best of three timed rounds of the same round trips, after one untimed warm-up round. */
async function baseline(requests: readonly Sent[]): Promise<{ wallMs: number; cpuMs: number }> {
  const mock = await startMock();
  try {
    const round = async () => {
      const started = performance.now();
      const cpu = process.cpuUsage();
      await forEachLimited(requests, CONCURRENCY, async (request) => {
        await sendRequest({
          url: mock.url + request.path,
          headers: request.headers,
          body: request.body,
          timeoutMs: 20_000,
        });
      });
      mock.reset();
      return { wallMs: performance.now() - started, cpuMs: cpuMs(cpu) };
    };
    await round();
    const rounds = [await round(), await round(), await round()];
    return rounds.reduce((best, r) => (r.wallMs < best.wallMs ? r : best));
  } finally {
    await mock.close();
  }
}

function rescoreLine(label: string, result: RescoreResult, total: number, cpu: number): string {
  const perSecond = (result.attempts * 1000) / result.elapsedMs;
  const outside = result.workers === 0 ? 1 - result.lensMs / result.elapsedMs : undefined;
  return (
    `rescore (${label}): ${result.attempts} attempts (of ${total}) in ${(result.elapsedMs / 1000).toFixed(1)} s = ${perSecond.toFixed(0)} attempts/s (target >= 20000); ` +
    `CPU ${((cpu * 1000) / result.attempts).toFixed(0)} µs/attempt; lens ${(result.lensMs / 1000).toFixed(1)} s` +
    `${outside === undefined ? "" : ` (outside the lens: ${(outside * 100).toFixed(0)}% of the time)`}; ` +
    `${result.changed} cells changed; ${load()}`
  );
}

try {
  // 1. The whole pipeline through direct.
  console.log(`sweep-bench on ${availableParallelism()} cores, ${load()}`);
  const doneAt: number[] = [];
  const started = performance.now();
  const sweepCpu = process.cpuUsage();
  const result = await runSweep({
    columns: [{ adapter: direct, spec: { name: "direct", version: "0" } }],
    probes: CORPUS,
    modes: ["non-stream", "stream"],
    repeats: 1,
    minutes: 10,
    concurrency: CONCURRENCY,
    dbPath: join(dir, "bench.db"),
    outDir: dir,
    attemptTimeoutMs: 20_000,
    args: { bench: true },
    progress: {
      column: () => {},
      cell: () => doneAt.push(performance.now()),
      note: () => {},
      close: () => {},
    },
  });
  const sweepMs = performance.now() - started;
  const sweepCpuMs = cpuMs(sweepCpu);
  const store = openStore(result.dbPath);
  const cells = store.cells(result.runId).length;
  const steadyMs = (doneAt.at(-1) ?? 0) - (doneAt[0] ?? 0);
  console.log(
    `sweep through direct: ${cells} cells in ${(sweepMs / 1000).toFixed(2)} s = ${((cells * 1000) / sweepMs).toFixed(0)} cells/s whole run ` +
      `(steady part: ${(((doneAt.length - 1) * 1000) / steadyMs).toFixed(0)} cells/s; start ${((doneAt[0] ?? started) - started).toFixed(0)} ms, ` +
      `after the last cell ${(started + sweepMs - (doneAt.at(-1) ?? 0)).toFixed(0)} ms); ` +
      `CPU ${(sweepCpuMs / cells).toFixed(2)} ms/cell (both threads); ${result.judgedInWorker} attempts judged in the worker; target >= 200 cells/s; ${load()}`,
  );

  // 2. Baseline: the same requests, bare.
  const requests = sentRequests(store, result.runId);
  const bare = await baseline(requests);
  const barePerSecond = (requests.length * 1000) / bare.wallMs;
  console.log(
    `baseline: the sweep's ${requests.length} requests bare to a mock (warm, best of 3): ${barePerSecond.toFixed(0)} req/s; CPU ${(bare.cpuMs / requests.length).toFixed(2)} ms/request; ${load()}`,
  );
  console.log(
    `ratio sweep/bare: ${((cells * 1000) / sweepMs / barePerSecond).toFixed(2)} whole run, ${(((doneAt.length - 1) * 1000) / steadyMs / barePerSecond).toFixed(2)} steady; ` +
      `harness overhead per cell: ${((sweepMs - bare.wallMs) / cells).toFixed(2)} ms wall whole run, ` +
      `${((steadyMs - bare.wallMs) / cells).toFixed(2)} ms wall steady, ${((sweepCpuMs - bare.cpuMs) / cells).toFixed(2)} ms CPU`,
  );

  // 3. Rescore: grow the run to TARGET_ATTEMPTS attempts by copying its rows, then re-judge.
  const have = store.countAttempts(result.runId);
  const copies = Math.ceil(TARGET_ATTEMPTS / have) - 1;
  // Each copy gets its own exchange rows, as a sweep of that size would have stored.
  const mains = `SELECT exchange_id FROM judgements WHERE run_id = ? AND phase = 'main'`;
  const growExchanges = store.db.prepare(
    `INSERT INTO exchanges (id, status, timings, exchange, client_sdk)
     SELECT id + ?, status, timings, exchange, client_sdk
     FROM exchanges WHERE id IN (${mains}) ORDER BY id`,
  );
  const growJudgements = store.db.prepare(
    `INSERT INTO judgements (run_id, "column", route_id, probe_id, mode, phase, attempt_no,
       verdicts_id, exchange_id)
     SELECT run_id, "column", route_id, probe_id, mode, 'repeat', attempt_no + ?, verdicts_id,
       exchange_id + ? FROM judgements WHERE run_id = ? AND phase = 'main' ORDER BY rowid`,
  );
  const maxExchange = store.db.prepare("SELECT max(id) FROM exchanges").pluck();
  store.db.transaction(() => {
    for (let i = 1; i <= copies; i++) {
      const offset = maxExchange.get() as number;
      growExchanges.run(offset, result.runId);
      growJudgements.run(i, offset, result.runId);
    }
  })();
  const total = store.countAttempts(result.runId);
  if (values.rescore === "both" || values.rescore === "thread") {
    const cpu = process.cpuUsage();
    const rescored = rescoreRun(store, result.runId);
    console.log(rescoreLine("this thread", rescored, total, cpuMs(cpu)));
  }
  if (values.rescore === "both" || values.rescore === "workers") {
    const cpu = process.cpuUsage();
    const rescored = await rescoreRunParallel(store, result.runId, { workers: WORKERS });
    console.log(rescoreLine(`${rescored.workers} workers`, rescored, total, cpuMs(cpu)));
  }
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
