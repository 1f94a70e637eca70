/**
 * The sweep end to end, with real processes and real HTTP: `direct` (must be clean), a
 * deliberately lossy gateway (its known defects must be found, stable k/N), a gateway that
 * crashes or stops answering (restarted once, then its cells become `error` with the log
 * path), an interrupted
 * run resumed without duplicate cells, and rescore of the stored bytes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { direct } from "../gateways/adapters/direct.ts";
import { CANARY_VALUES } from "../probes/corpus/canaries.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import { cellKeyString } from "../results/records.ts";
import { openStore } from "../results/store.ts";
import { INTERRUPTED_REASON } from "./column-phases.ts";
import { HUNG_AFTER_UNANSWERED } from "./hang-watch.ts";
import { rescoreRun } from "./rescore.ts";
import { ROUTE_API_KEY, runSweep, type SweepOptions } from "./run-sweep.ts";
import { lossyGateway } from "./testing-columns.ts";
import { processesRunning, testSweepOptions } from "./testing-sweep.ts";

const dirs: string[] = [];
function workdir(): string {
  const dir = mkdtempSync(join(tmpdir(), "gatecheck-sweep-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Probes whose staged reply is immediate: each unanswered attempt of theirs counts. */
const HANG_PROBE_IDS = [
  "oc-max-tokens",
  "oc-temperature",
  "oc-top-p",
  "oc-stop-string",
  "oc-seed",
  "oc-logit-bias",
  "oc-presence-penalty",
  "oc-frequency-penalty",
  "oc-metadata",
  "oc-user",
  "oc-store",
  "oc-system-message",
  "oc-reply-text",
  "oc-reply-finish-length",
  "oc-reply-usage-input",
  "oc-reply-usage-output",
];
const PROBE_IDS = ["oc-stop-string", "oc-temperature", "oc-seed", "oc-credential-x-api-key"];
function probes(ids: readonly string[]): Probe[] {
  const found = CORPUS.filter((p) => ids.includes(p.id));
  expect(found.map((p) => p.id).sort()).toEqual([...ids].sort());
  return found;
}

function options(dir: string, over: Partial<SweepOptions>): SweepOptions {
  return testSweepOptions(dir, {
    probes: probes(PROBE_IDS),
    modes: ["non-stream", "stream"],
    repeats: 2,
    minutes: 5,
    ...over,
  });
}

describe("runSweep", () => {
  it("finds the lossy gateway's defects, keeps direct clean, and rescores to the same verdicts", async () => {
    const dir = workdir();
    const result = await runSweep(
      options(dir, {
        columns: [
          { adapter: direct, spec: { name: "direct", version: "0" } },
          { adapter: lossyGateway(), spec: { name: "lossy", version: "1.0.0" } },
        ],
        // The Gemini-style ?key= canary rides on the client URL, which the sweep stores.
        probes: probes([...PROBE_IDS, "oc-credential-query-key"]),
        // Judged in the worker, as a full sweep is: the rescore below judges in this thread.
        judgeInWorker: true,
      }),
    );
    expect(result.status).toBe("done");
    expect(processesRunning("lossy-gateway.mjs")).toEqual([]);
    const store = openStore(result.dbPath);
    try {
      const cells = store.cells(result.runId);
      const verdict = (column: string, probe: string, mode = "non-stream") =>
        cells.find((c) => c.column === column && c.probeId === probe && c.mode === mode);
      // direct: no gateway, no loss; credential probes are not planned (the key is the upstream's).
      for (const cell of cells.filter((c) => c.column === "direct@0")) {
        expect([cell.probeId, cell.mode, cell.verdict]).toEqual([
          cell.probeId,
          cell.mode,
          "preserved",
        ]);
      }
      expect(verdict("direct@0", "oc-credential-x-api-key")).toBeUndefined();
      for (const mode of ["non-stream", "stream"]) {
        expect(verdict("lossy@1.0.0", "oc-stop-string", mode)).toMatchObject({
          verdict: "dropped",
          runs: 2,
          determinism: 2,
          stable: true,
        });
        expect(verdict("lossy@1.0.0", "oc-temperature", mode)).toMatchObject({
          verdict: "mangled",
          stable: true,
        });
        expect(verdict("lossy@1.0.0", "oc-seed", mode)).toMatchObject({
          verdict: "preserved",
          runs: 1,
        });
        expect(verdict("lossy@1.0.0", "oc-credential-x-api-key", mode)).toMatchObject({
          verdict: "leaked",
        });
      }
      expect(verdict("lossy@1.0.0", "oc-temperature")?.reason).toMatch(/0\.3|1/);
      const matrix = readFileSync(result.matrixPath, "utf8");
      expect(matrix).toContain("lossy@1.0.0");
      expect(JSON.parse(readFileSync(result.summaryPath, "utf8"))).toMatchObject({
        runId: result.runId,
      });

      // No credential reaches disk: the database (with its WAL), the matrix, summary and report.
      const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) =>
        statSync(join(dir, name)).isFile(),
      );
      expect(files).toContain("gc.db");
      for (const name of files) {
        const bytes = readFileSync(join(dir, name)).toString("latin1");
        expect(
          CANARY_VALUES.filter((canary) => bytes.includes(canary)),
          name,
        ).toEqual([]);
      }

      const attempts = store.countAttempts(result.runId);
      expect(result.judgedInWorker).toBe(attempts);
      const rescored = rescoreRun(store, result.runId);
      expect(rescored.changed).toBe(0);
      // Every attempt's verdict list, judged in this thread again, is the worker's.
      const sameLists = store.db
        .prepare(
          `SELECT count(*) FROM judgements a JOIN judgements b ON b.exchange_id = a.exchange_id
           WHERE a.run_id = ? AND b.run_id = ? AND b.verdicts_id = a.verdicts_id`,
        )
        .pluck()
        .get(result.runId, rescored.runId);
      expect(sameLists).toBe(attempts);
      const again = store.cells(rescored.runId);
      expect(again.map((c) => [cellKeyString(c), c.verdict])).toEqual(
        cells.map((c) => [cellKeyString(c), c.verdict]),
      );
    } finally {
      store.close();
    }
  });

  it("restarts a crashing gateway once, then marks its remaining cells error with the log path", async () => {
    const dir = workdir();
    const result = await runSweep(
      options(dir, {
        columns: [
          { adapter: lossyGateway({ crashAfter: 2 }), spec: { name: "lossy", version: "1.0.0" } },
        ],
        repeats: 1,
        concurrency: 1,
      }),
    );
    expect(result.columns[0]).toMatchObject({ status: "error" });
    expect(result.columns[0]?.reason).toMatch(/crashed twice/);
    expect(processesRunning("lossy-gateway.mjs")).toEqual([]);
    const store = openStore(result.dbPath);
    try {
      const [gatewayRun] = store.gatewayRuns(result.runId);
      expect(gatewayRun).toMatchObject({ status: "error" });
      expect(gatewayRun?.reason).toMatch(/log: .+\.log/);
      const cells = store.cells(result.runId);
      expect(cells.length).toBe(8);
      // One cell answered by each gateway process before its crash (the one it crashed on is
      // sent again to the restarted one); no cell is judged on a connection the crash cut.
      expect(cells.filter((c) => c.verdict !== "error").length).toBe(2);
      const errors = cells.filter((c) => c.verdict === "error");
      expect(errors.map((c) => c.reason).filter((r) => !/crashed twice/.test(r))).toEqual([]);
      // The log's last lines carry the route's key (the gateway printed it); stored redacted.
      expect(gatewayRun?.reason).toContain("authorization: Bearer [REDACTED:");
      for (const text of [gatewayRun?.reason, ...errors.map((c) => c.reason)])
        expect(text).not.toContain(ROUTE_API_KEY);
    } finally {
      store.close();
    }
  });

  it("restarts a gateway that stops answering once, then marks its remaining cells error with the hung reason", async () => {
    const dir = workdir();
    const hangAfter = 2;
    const concurrency = 2;
    const result = await runSweep(
      options(dir, {
        columns: [
          { adapter: lossyGateway({ hangAfter }), spec: { name: "lossy", version: "1.0.0" } },
        ],
        // Immediate staged replies only: every unanswered one counts (hang-watch.ts).
        probes: probes(HANG_PROBE_IDS),
        repeats: 1,
        concurrency,
        attemptTimeoutMs: 1_000,
      }),
    );
    expect(result.status).toBe("done");
    expect(result.columns[0]).toMatchObject({ status: "error" });
    const hung = new RegExp(
      `^stopped answering \\(hung\\): ${HUNG_AFTER_UNANSWERED} requests timed out and a health check got no answer within 1 s; log: .+gateway\\.log$`,
    );
    expect(result.columns[0]?.reason).toMatch(hung);
    expect(processesRunning("lossy-gateway.mjs")).toEqual([]);
    const store = openStore(result.dbPath);
    try {
      const [gatewayRun] = store.gatewayRuns(result.runId);
      expect(gatewayRun).toMatchObject({ status: "error" });
      expect(gatewayRun?.reason).toMatch(hung);
      const cells = store.cells(result.runId);
      expect(cells.length).toBe(HANG_PROBE_IDS.length * 2);
      // Answered before each hang: the first gateway's and the restarted one's.
      expect(cells.filter((c) => c.verdict !== "error").length).toBe(2 * hangAfter);
      const given = cells.filter(
        (c) => c.verdict === "error" && /gateway stopped answering \(hung\)/.test(c.reason),
      );
      expect(given.length).toBeGreaterThan(0);
      for (const cell of given) expect(cell.reason).toMatch(/log: .+gateway\.log$/);
      // The sweep waited out a bounded number of deadlines, not one per remaining cell: per
      // gateway process, the run that makes it ask plus those already in flight.
      const timedOut = store.db
        .prepare(`SELECT count(*) FROM attempts WHERE run_id = ? AND status = 'transport-error'`)
        .pluck()
        .get(result.runId) as number;
      expect(timedOut).toBeLessThanOrEqual(2 * (HUNG_AFTER_UNANSWERED + concurrency));
      const log = readFileSync(gatewayRun?.logPath ?? "", "utf8");
      expect(log.match(/hung after 2 requests/g)?.length).toBe(2);
    } finally {
      store.close();
    }
  });

  it("stops when interrupted and resumes without duplicate cells", async () => {
    const dir = workdir();
    const controller = new AbortController();
    let seen = 0;
    const first = await runSweep(
      options(dir, {
        columns: [{ adapter: direct, spec: { name: "direct", version: "0" } }],
        probes: probes(["oc-stop-string", "oc-temperature", "oc-seed", "oc-top-p"]),
        concurrency: 1,
        signal: controller.signal,
        progress: {
          column() {},
          cell() {
            seen += 1;
            if (seen === 3) controller.abort();
          },
          note() {},
          close() {},
        },
      }),
    );
    expect(first.status).toBe("interrupted");
    const store = openStore(first.dbPath);
    const stored = store.cells(first.runId);
    store.close();
    const partial = stored.filter((c) => c.verdict !== "not-run").length;
    expect(partial).toBeGreaterThanOrEqual(3);
    expect(partial).toBeLessThan(8);
    // The cells never run are kept as not measured, with why, so the matrix counts them.
    const neverRun = stored.filter((c) => c.verdict === "not-run");
    expect(neverRun.length).toBe(8 - partial);
    expect(neverRun.every((c) => c.reason === INTERRUPTED_REASON)).toBe(true);

    const resumed = await runSweep(
      options(dir, {
        columns: [{ adapter: direct, spec: { name: "direct", version: "0" } }],
        probes: probes(["oc-stop-string", "oc-temperature", "oc-seed", "oc-top-p"]),
        resume: first.runId,
      }),
    );
    expect(resumed).toMatchObject({ runId: first.runId, status: "done" });
    const after = openStore(first.dbPath);
    try {
      const cells = after.cells(first.runId);
      expect(cells.length).toBe(8);
      expect(new Set(cells.map(cellKeyString)).size).toBe(8);
      expect(after.getRun(first.runId)?.status).toBe("done");
      // One main attempt per cell: resumed cells were not run twice.
      expect(after.countAttempts(first.runId)).toBe(8);
    } finally {
      after.close();
    }
  });
});
