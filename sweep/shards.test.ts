/**
 * Shards of one sweep, run apart and merged, equal the sweep run whole: same cells, same
 * verdicts, one run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { direct } from "../gateways/adapters/direct.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import { mergeDatabases } from "../results/merge-databases.ts";
import { cellKeyString } from "../results/records.ts";
import { openStore } from "../results/store.ts";
import { runSweep, type SweepOptions } from "./run-sweep.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-shards-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = (name: string): SweepOptions => ({
  columns: [{ adapter: direct, spec: { name: "direct", version: "0" } }],
  probes: CORPUS.filter((p) => p.client === "openai-chat" && p.axis === "request"),
  modes: ["non-stream"],
  repeats: 1,
  minutes: 5,
  concurrency: 4,
  dbPath: join(dir, `${name}.db`),
  outDir: join(dir, name),
  attemptTimeoutMs: 10_000,
  args: {},
});

function verdicts(path: string, runId: string): [string, string][] {
  const store = openStore(path);
  try {
    return store
      .cells(runId)
      .map((c): [string, string] => [cellKeyString(c), c.verdict])
      .sort();
  } finally {
    store.close();
  }
}

it("merges 3 shards into the same cells and verdicts as one whole run", async () => {
  const whole = await runSweep(base("whole"));
  const runId = "nightly-shards-test";
  const shardPaths: string[] = [];
  for (const index of [1, 2, 3]) {
    const shard = await runSweep({ ...base(`shard${index}`), runId, shard: { index, count: 3 } });
    expect(shard.runId).toBe(runId);
    shardPaths.push(shard.dbPath);
  }
  const sizes = shardPaths.map((p) => verdicts(p, runId).length);
  for (const size of sizes) expect(size).toBeGreaterThan(0);
  const merged = join(dir, "merged.db");
  const report = mergeDatabases(merged, shardPaths);
  expect(report.runs).toEqual([runId]);
  const mergedCells = verdicts(merged, runId);
  expect(mergedCells.length).toBe(sizes.reduce((a, b) => a + b, 0));
  expect(mergedCells).toEqual(verdicts(whole.dbPath, whole.runId));
  const store = openStore(merged);
  try {
    expect(store.getRun(runId)?.shard).toBeUndefined();
  } finally {
    store.close();
  }
});
