/**
 * The shipped nightly workflow, its steps run in order as GitHub Actions runs them
 * (scripts/ci/workflow-runner.ts): every shard of the job matrix on a machine of its own, then
 * the merge job, for two nights, with artifacts and the cache kept in a folder standing for
 * GitHub's storage. The cache starts with an older night's history, so that pruning has
 * something to prune. What the test changes, all of it here:
 * - `npx gatecheck` is this checkout's bin (the test runs outside the repository) and
 *   `npm ci` does nothing (this checkout is installed);
 * - each sweep is narrowed to `direct` and the sweep tests' lossy gateway (a user gateway
 *   JSON file) and three probes, since the default sweep installs and runs every gateway; the
 *   lossy gateway drops `stop` and mangles `temperature` every night (failing JUnit cases),
 *   and on the second night it drops `seed` as well (the regression);
 * - KEEP_RUNS is 2, so that the third night in the history is pruned.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { cliBundle } from "../cli-bundle.mjs";
import {
  cacheEntry,
  type JobContext,
  runJob,
  type StepResult,
  saveCacheEntry,
  stepSchema,
} from "./workflow-runner.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "scripts", "gatecheck.mjs");
const PROBES = "--probes oc-stop-string,oc-temperature,oc-seed --repeats 1";

const workflowSchema = z.object({
  jobs: z.object({
    shard: z.object({
      strategy: z.object({ matrix: z.object({ shard: z.array(z.number()) }) }),
      steps: z.array(stepSchema),
    }),
    merge: z.object({
      needs: z.literal("shard"),
      env: z.record(z.string(), z.string()).default({}),
      steps: z.array(stepSchema),
    }),
  }),
});
const workflow = workflowSchema.parse(
  parse(readFileSync(join(ROOT, "scripts", "ci", "nightly.yml"), "utf8")),
);

const dir = mkdtempSync(join(tmpdir(), "gatecheck-nightly-"));
const storage = join(dir, "github");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const gatecheck = `"${process.execPath}" "${BIN}"`;

/** The lossy gateway as a user gateway file; `drop` names the fields it also loses. */
function lossyGateway(name: string, drop: string[]): string {
  const fixture = JSON.parse(
    readFileSync(join(ROOT, "sweep", "fixtures", "lossy-gateway.json"), "utf8"),
  ) as { command: string[] };
  fixture.command[1] = join(dir, "lossy-gateway.mjs");
  if (drop.length > 0) fixture.command.push(`--drop=${drop.join(",")}`);
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(fixture));
  return path;
}

function context(cwd: string, vars: Record<string, string>, gateway: string, env = {}): JobContext {
  return {
    cwd,
    storage,
    vars,
    env,
    rewrite: (command) => {
      if (command === "npm ci") return "true";
      const ours = command.replace(/\bnpx gatecheck /g, `${gatecheck} `);
      return / sweep /.test(ours) ? `${ours} --gateways direct,${gateway} ${PROBES}` : ours;
    },
  };
}

/** One night: every shard, then the merge job; the merge job's step results. */
function night(runId: string, gateway: string): StepResult[] {
  const vars = { "github.run_id": runId, "github.run_attempt": "1" };
  for (const shard of workflow.jobs.shard.strategy.matrix.shard) {
    const cwd = join(dir, runId, `shard-${shard}`);
    const results = runJob(
      workflow.jobs.shard.steps,
      context(cwd, { ...vars, "matrix.shard": String(shard) }, gateway),
    );
    for (const r of results) expect(r.status, `${r.step.run}\n${r.stderr}`).toBe(0);
  }
  const env = { ...workflow.jobs.merge.env, KEEP_RUNS: "2" };
  return runJob(workflow.jobs.merge.steps, context(join(dir, runId, "merge"), vars, gateway, env));
}

const failedSteps = (results: StepResult[]) =>
  results.filter((r) => !r.skipped && r.status !== 0).map((r) => r.step.run ?? r.step.uses);
const stepOf = (results: StepResult[], pattern: RegExp) => {
  const found = results.find((r) => pattern.test(r.step.run ?? r.step.uses ?? ""));
  if (!found) throw new Error(`the workflow has no step matching ${pattern}`);
  return found;
};

function runsIn(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare("SELECT id FROM runs ORDER BY started_at DESC").all() as {
      id: string;
    }[];
    return rows.map((r) => r.id);
  } finally {
    db.close();
  }
}

function cellsOf(file: string, runId: string): number {
  const db = new Database(file, { readonly: true });
  try {
    const row = db.prepare("SELECT count(*) AS n FROM cells WHERE run_id = ?").get(runId);
    return (row as { n: number }).n;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  await cliBundle();
  copyFileSync(
    join(ROOT, "sweep", "fixtures", "lossy-gateway.mjs"),
    join(dir, "lossy-gateway.mjs"),
  );
  // An older night already in the cache: the history the first night restores.
  const old = join(dir, "old", "history.db");
  const run = spawnSync(
    "sh",
    ["-c", `${gatecheck} sweep --gateways direct ${PROBES} --run-id nightly-100 --db ${old}`],
    { encoding: "utf8" },
  );
  expect(run.status, run.stderr).toBe(0);
  saveCacheEntry(storage, "gatecheck-history-100-1", old);
}, 120_000);

// Eight sweeps and a dozen other CLI runs: minutes when the shared 2-core machine is loaded.
describe("scripts/ci/nightly.yml", { timeout: 900_000 }, () => {
  it("runs as shipped: failing JUnit cases do not stop it, diff fails on a regression, history saved and pruned", () => {
    expect(workflow.jobs.shard.strategy.matrix.shard.length).toBeGreaterThan(1);

    // Night 1: real findings (failing JUnit cases), no regression: every step runs, the job passes.
    const first = night("101", lossyGateway("lossy-1.json", []));
    expect(failedSteps(first)).toEqual([]);
    expect(first.filter((r) => r.skipped)).toEqual([]);
    const report1 = stepOf(first, /gatecheck report/);
    expect(report1.stderr).toMatch(/junit: \d+ cases, [1-9]\d* failed/);
    const merged1 = join(dir, "101", "merge");
    expect(readFileSync(join(merged1, "junit.xml"), "utf8")).toMatch(/<failure/);
    expect(readFileSync(join(merged1, "MATRIX.md"), "utf8")).toContain("nightly-101");
    expect(stepOf(first, /cache\/restore/).stdout).toBe("restored gatecheck-history-100-1\n");
    const saved1 = join(cacheEntry(storage, "gatecheck-history-101-1"), "history.db");
    expect(runsIn(saved1)).toEqual(["nightly-101", "nightly-100"]);

    // Night 2: the gateway also drops `seed`. The diff step is the one that fails; the
    // report before it ran, and the always() steps after it saved the matrix and the history.
    const second = night("102", lossyGateway("lossy-2.json", ["seed"]));
    const diff = stepOf(second, /gatecheck diff/);
    expect(failedSteps(second)).toEqual([diff.step.run]);
    expect(diff.status).toBe(1);
    expect(diff.stdout).toMatch(/seed/);
    expect(stepOf(second, /gatecheck report/).status).toBe(0);
    expect(stepOf(second, /cache\/restore/).stdout).toBe("restored gatecheck-history-101-1\n");
    const after = second.slice(second.indexOf(diff) + 1);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((r) => !r.skipped && r.status === 0)).toBe(true);
    expect(statSync(join(storage, "artifacts", "matrix", "junit.xml")).size).toBeGreaterThan(0);
    // Saved and pruned: the oldest night is gone from the saved history.
    const saved2 = join(cacheEntry(storage, "gatecheck-history-102-1"), "history.db");
    expect(runsIn(saved2)).toEqual(["nightly-102", "nightly-101"]);
    expect(stepOf(second, /gatecheck prune/).stdout).toContain("deleted 1 run(s): nightly-100");

    // The shards of a night are one run holding every cell of the unsharded sweep.
    const whole = join(dir, "whole.db");
    const run = context(dir, {}, join(dir, "lossy-2.json")).rewrite(
      `npx gatecheck sweep --db ${whole}`,
    );
    const wholeRun = spawnSync("sh", ["-c", run], { encoding: "utf8" });
    expect(wholeRun.status, wholeRun.stderr).toBe(0);
    const cells = cellsOf(whole, runsIn(whole)[0] ?? "");
    expect(cells).toBeGreaterThan(0);
    expect(cellsOf(saved2, "nightly-102")).toBe(cells);
    expect(cellsOf(saved2, "nightly-101")).toBe(cells);
  });
});
