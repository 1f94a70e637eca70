/**
 * The shipped nightly workflow, run as GitHub Actions would run its commands: every shard of
 * the job matrix, then the merge job, for two nights in one folder (history.db stays, as the
 * workflow's cache keeps it). Two changes, both additions: `npx gatecheck` is this checkout's
 * bin (the test runs outside the repository), and each sweep is narrowed to the `direct`
 * column and two probes, since the default sweep installs and runs every gateway. Steps that
 * are not `run:` (checkout, setup-node, artifacts, cache) move files between machines; here
 * every job shares one folder. `npm ci` is this checkout's own install.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "scripts", "gatecheck.mjs");
const NARROW = "--gateways direct --probes am-temperature,oc-temperature --repeats 1";

const stepSchema = z.object({ run: z.string().optional(), uses: z.string().optional() });
const workflowSchema = z.object({
  jobs: z.object({
    shard: z.object({
      strategy: z.object({ matrix: z.object({ shard: z.array(z.number()) }) }),
      steps: z.array(stepSchema),
    }),
    merge: z.object({ needs: z.literal("shard"), steps: z.array(stepSchema) }),
  }),
});
const workflow = workflowSchema.parse(
  parse(readFileSync(join(ROOT, "scripts", "ci", "nightly.yml"), "utf8")),
);

/** A job's `run:` commands for one machine, as a shell would run them here. */
function commandsOf(steps: z.infer<typeof stepSchema>[], vars: Record<string, string>): string[] {
  const out: string[] = [];
  for (const { run } of steps) {
    if (run === undefined || run.trim() === "npm ci") continue;
    let command = run.trim().replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) => {
      const value = vars[name];
      if (value === undefined)
        throw new Error(`the workflow uses ${whole}, which this test does not set`);
      return value;
    });
    expect(command.startsWith("npx gatecheck ")).toBe(true);
    command = command.replace(/^npx gatecheck /, `"${process.execPath}" "${BIN}" `);
    if (/ sweep /.test(command)) command = `${command} ${NARROW}`;
    out.push(command);
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), "gatecheck-nightly-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runAll(commands: string[]): void {
  for (const command of commands) {
    const result = spawnSync("sh", ["-c", command], { cwd: dir, encoding: "utf8" });
    expect(result.status, `${command}\n${result.stdout}\n${result.stderr}`).toBe(0);
  }
}

// Thirteen CLI runs, six of them sweeps: minutes when the shared 2-core machine is loaded.
describe("scripts/ci/nightly.yml", { timeout: 600_000 }, () => {
  it("runs as shipped: shards, merge, report, diff, two nights in a row", () => {
    const shards = workflow.jobs.shard.strategy.matrix.shard;
    expect(shards.length).toBeGreaterThan(1);
    for (const night of ["101", "102"]) {
      for (const shard of shards) {
        runAll(
          commandsOf(workflow.jobs.shard.steps, {
            "matrix.shard": String(shard),
            "github.run_id": night,
          }),
        );
      }
      runAll(commandsOf(workflow.jobs.merge.steps, { "github.run_id": night }));
      expect(readFileSync(join(dir, "MATRIX.md"), "utf8")).toContain(`nightly-${night}`);
      expect(readFileSync(join(dir, "junit.xml"), "utf8")).toContain("<testsuite");
    }
    // The shards of a night are one run holding every cell of the unsharded sweep.
    const db = new Database(join(dir, "history.db"), { readonly: true });
    const perRun = db
      .prepare("SELECT run_id AS run, count(*) AS cells FROM cells GROUP BY run_id ORDER BY run_id")
      .all();
    db.close();
    runAll([`"${process.execPath}" "${BIN}" sweep ${NARROW} --db whole.db`]);
    const whole = new Database(join(dir, "whole.db"), { readonly: true });
    const { cells } = whole.prepare("SELECT count(*) AS cells FROM cells").get() as {
      cells: number;
    };
    whole.close();
    expect(cells).toBeGreaterThan(0);
    expect(perRun).toEqual([
      { run: "nightly-101", cells },
      { run: "nightly-102", cells },
    ]);
  });
});
