/**
 * Whole-pipeline benchmark of the sweep through `direct` (no gateway): cells per second and
 * the harness's overhead per cell, against a baseline measured in the same run: the same
 * number of plain HTTP round trips to the same mock, with no staging, judging or storing.
 * Then `rescore` throughput on a database grown to --attempts attempts by copying a real
 * run's attempts.
 *
 *   npx tsx scripts/bench/sweep-bench.ts [--attempts 100000] [--concurrency 8]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { direct } from "../../gateways/adapters/direct.ts";
import { startMock } from "../../mock-upstream/index.ts";
import { CORPUS } from "../../probes/corpus/index.ts";
import { openStore } from "../../results/store.ts";
import { sendRequest } from "../../sweep/http-client.ts";
import { forEachLimited } from "../../sweep/pool.ts";
import { rescoreRun } from "../../sweep/rescore.ts";
import { runSweep } from "../../sweep/run-sweep.ts";

const { values } = parseArgs({
  options: {
    attempts: { type: "string", default: "100000" },
    concurrency: { type: "string", default: "8" },
  },
});
const TARGET_ATTEMPTS = Number(values.attempts);
const CONCURRENCY = Number(values.concurrency);
const dir = mkdtempSync(join(tmpdir(), "gatecheck-sweep-bench-"));

try {
  // 1. The whole pipeline through direct.
  const started = performance.now();
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
  });
  const sweepMs = performance.now() - started;
  const store = openStore(result.dbPath);
  const cells = store.cells(result.runId).length;

  // 2. Baseline: the same number of bare round trips to a mock, same concurrency.
  const mock = await startMock();
  const body = JSON.stringify({
    model: "m",
    messages: [{ role: "user", content: "gc-0123456789abcdef hi" }],
  });
  const bareStarted = performance.now();
  await forEachLimited(
    Array.from({ length: cells }, (_, i) => i),
    CONCURRENCY,
    async () => {
      await sendRequest({
        url: `${mock.url}/v1/chat/completions`,
        headers: { "content-type": "application/json" },
        body,
        timeoutMs: 20_000,
      });
    },
  );
  const bareMs = performance.now() - bareStarted;
  await mock.close();

  const cellsPerSecond = (cells * 1000) / sweepMs;
  const barePerSecond = (cells * 1000) / bareMs;
  console.log(
    `sweep through direct: ${cells} cells in ${(sweepMs / 1000).toFixed(1)} s = ${cellsPerSecond.toFixed(0)} cells/s`,
  );
  console.log(`baseline bare round trips: ${barePerSecond.toFixed(0)} req/s`);
  console.log(
    `ratio sweep/bare: ${(cellsPerSecond / barePerSecond).toFixed(2)}; harness overhead per cell: ${((sweepMs - bareMs) / cells).toFixed(2)} ms (includes gateway-less startup and the report)`,
  );

  // 3. Rescore: grow the run to TARGET_ATTEMPTS attempts by copying its rows, then re-judge.
  const have = store.countAttempts(result.runId);
  const copies = Math.ceil(TARGET_ATTEMPTS / have) - 1;
  const grow = store.db.prepare(
    `INSERT INTO attempts (run_id, "column", route_id, probe_id, mode, phase, attempt_no, status, timings,
       client_request, forwarded, upstream_reply, client_response, verdicts)
     SELECT run_id, "column", route_id, probe_id, mode, 'repeat', attempt_no + ?, status, timings,
       client_request, forwarded, upstream_reply, client_response, verdicts
     FROM attempts WHERE run_id = ? AND phase = 'main'`,
  );
  store.db.transaction(() => {
    for (let i = 1; i <= copies; i++) grow.run(i, result.runId);
  })();
  const total = store.countAttempts(result.runId);
  const rescored = rescoreRun(store, result.runId);
  const perSecond = (rescored.attempts * 1000) / rescored.elapsedMs;
  console.log(
    `rescore: ${rescored.attempts} attempts (of ${total}) in ${(rescored.elapsedMs / 1000).toFixed(1)} s = ${perSecond.toFixed(0)} attempts/s (target >= 20000)`,
  );
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
