/**
 * `gatecheck prune --keep N` on a database a nightly job grew: the real bin, real sweeps
 * (the `direct` column, two probes) and a rescore, whose judgements share the bytes of the
 * run it re-judged.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStoreReadonly } from "../../results/store.ts";
import { cliBundle } from "../cli-bundle.mjs";

const BIN = join(import.meta.dirname, "..", "gatecheck.mjs");
const dir = mkdtempSync(join(tmpdir(), "gatecheck-prune-"));
const db = join(dir, "night", "gc.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function gatecheck(...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: "utf8" });
  expect(run.status, `${args.join(" ")}\n${run.stderr}`).toBe(0);
  return run.stdout;
}

/** A run's attempts by id: a matrix's `#N` must name the same attempt after a prune. */
function attemptIds(path: string, runId: string): unknown[] {
  const store = openStoreReadonly(path);
  try {
    return store.db
      .prepare(
        `SELECT attempt_id, "column", route_id, probe_id, mode, phase, attempt_no
         FROM attempts WHERE run_id = ? ORDER BY attempt_id`,
      )
      .all(runId);
  } finally {
    store.close();
  }
}

function runsIn(path: string): { id: string; cells: number; attempts: number }[] {
  const store = openStoreReadonly(path);
  try {
    return store.listRuns().map((r) => ({
      id: r.id,
      cells: store.cells(r.id).length,
      attempts: store.countAttempts(r.id),
    }));
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  await cliBundle();
  for (const id of ["night-1", "night-2"]) {
    gatecheck("sweep", "--gateways", "direct", "--probes", "oc-temperature,am-temperature");
    gatecheck(
      ...["sweep", "--gateways", "direct", "--probes", "oc-seed,oc-top-p"],
      ...["--repeats", "1", "--db", db, "--run-id", id],
    );
  }
  gatecheck("rescore", "night-1", "--db", db);
}, 120_000);

describe("gatecheck prune", { timeout: 300_000 }, () => {
  it("--dry-run names what would go and changes nothing", () => {
    const before = runsIn(db);
    const out = gatecheck("prune", "--keep", "1", "--db", db, "--dry-run");
    expect(out).toContain("would delete 2 run(s): night-2, night-1");
    expect(runsIn(db)).toEqual(before);
    expect(existsSync(join(dir, "night", "runs", "night-1"))).toBe(true);
  });

  it("keeps the newest runs and their folders, deletes the rest, and the file shrinks", () => {
    const before = runsIn(db);
    expect(before.map((r) => r.id)).toEqual([expect.stringMatching(/./), "night-2", "night-1"]);
    const rescored = before[0]!;
    const size = statSync(db).size;
    const ids = attemptIds(db, rescored.id);
    const summary = JSON.parse(gatecheck("prune", "--keep", "1", "--db", db, "--json")) as {
      kept: string[];
      deleted: string[];
      runFolders: string[];
    };
    expect(summary.kept).toEqual([rescored.id]);
    expect(summary.deleted).toEqual(["night-2", "night-1"]);
    expect(summary.runFolders).toEqual([
      join(dir, "night", "runs", "night-2"),
      join(dir, "night", "runs", "night-1"),
    ]);
    // The rescore keeps every attempt: its judgements still find night-1's bytes.
    expect(runsIn(db)).toEqual([rescored]);
    // The kept run's attempts keep their ids through the deletion and the VACUUM (SQLite may
    // renumber the rowids of a table without an INTEGER PRIMARY KEY; judgements' indexes
    // keep them), so a matrix's or a diff's `#N` still names the same attempt.
    expect(ids.length).toBeGreaterThan(0);
    expect(attemptIds(db, rescored.id)).toEqual(ids);
    for (const folder of summary.runFolders) expect(existsSync(folder)).toBe(false);
    expect(statSync(db).size).toBeLessThan(size);
    expect(gatecheck("report", "--db", db)).toContain(rescored.id);
    // Another database's runs in the default results/ are not touched.
    expect(runsIn(join(dir, "results", "gatecheck.db"))).toHaveLength(2);
    expect(gatecheck("prune", "--keep", "1", "--db", db)).toContain("nothing to prune");
  });

  it("refuses --keep 0 and a missing database, exit 2", () => {
    for (const args of [
      ["--keep", "0", "--db", db],
      ["--keep", "1", "--db", join(dir, "none.db")],
    ]) {
      const run = spawnSync(process.execPath, [BIN, "prune", ...args], { encoding: "utf8" });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/--keep takes a whole number >= 1|no results database/);
    }
  });
});
