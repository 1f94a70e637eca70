/**
 * A run id names a folder that `prune` deletes and a sweep writes: ids that are not one
 * folder name (`..`, `.`, a path, a newline and HTML, an absolute path, a very long one)
 * are refused at every door with exit 2 and a message, and nothing outside the folders the
 * user named is written or deleted. The real bin, real sweeps of the `direct` column, real
 * SQLite; databases holding such ids are made by hand, as an older or foreign tool would.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliBundle } from "../cli-bundle.mjs";
import { COMMANDS } from "./index.ts";
import { runCli } from "./testing/run-cli.ts";

const BIN = join(import.meta.dirname, "..", "gatecheck.mjs");
const root = mkdtempSync(join(tmpdir(), "gatecheck-hostile-ids-"));
/** Where the commands run; `o/` below it is the output folder the user names. */
const work = join(root, "a", "b");
/** `o/runs/../../../victim`: three levels up from the runs folder. */
const victim = join(root, "a", "victim", "keep.txt");
const SENTINELS = [
  join(root, "sentinel.txt"),
  join(root, "a", "sentinel.txt"),
  join(work, "sentinel.txt"),
  join(work, "x", "keep.txt"),
  victim,
];
/** One run of the `direct` column, the source of every hand-made database below. */
const base = join(root, "base", "gc.db");
const PROBES = ["--gateways", "direct", "--probes", "oc-stop-*", "--repeats", "1"];

afterAll(() => rmSync(root, { recursive: true, force: true }));

function gatecheck(...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd: work, encoding: "utf8" });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

function ok(...args: string[]) {
  const run = gatecheck(...args);
  expect(run.code, `${args.join(" ")}\n${run.err}`).toBe(0);
  return run.out;
}

/**
 * Every file and folder under the temporary root, with each file's size and mtime; SQLite's
 * `-wal` and `-shm` files, which any reader of a database in WAL mode makes beside it, left out.
 */
function snapshot(dir: string = root): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    if (name.endsWith("-wal") || name.endsWith("-shm")) continue;
    const path = join(dir, name);
    const stats = lstatSync(path);
    if (stats.isDirectory()) {
      out[path] = "folder";
      Object.assign(out, snapshot(path));
    } else {
      out[path] = `${stats.size}:${stats.mtimeMs}`;
    }
  }
  return out;
}

function sentinelsSurvive(): void {
  for (const file of SENTINELS) expect(existsSync(file), file).toBe(true);
}

/** A copy of the base database whose one run is renamed to `id` in every table. */
function renamedCopy(path: string, id: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  copyFileSync(base, path);
  const db = new Database(path);
  try {
    db.pragma("foreign_keys = OFF"); // one table after another, as a foreign tool would
    db.transaction(() => {
      db.prepare("UPDATE runs SET id = ?").run(id);
      for (const table of ["gateway_runs", "cells", "judgements", "loops"]) {
        db.prepare(`UPDATE ${table} SET run_id = ?`).run(id);
      }
    })();
  } finally {
    db.close();
  }
  return path;
}

/** A copy of the base database with one more, older, run named `id` (so `prune --keep 1` drops it). */
function withOlderRun(path: string, id: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  copyFileSync(base, path);
  const db = new Database(path);
  try {
    const columns = (db.prepare("PRAGMA table_info(runs)").all() as { name: string }[]).map(
      (c) => `"${c.name}"`,
    );
    const values = columns.map((c) =>
      c === '"id"' ? "@id" : c === '"started_at"' ? "'2000-01-01T00:00:00.000Z'" : c,
    );
    db.prepare(
      `INSERT INTO runs (${columns.join(", ")}) SELECT ${values.join(", ")} FROM runs LIMIT 1`,
    ).run({ id });
  } finally {
    db.close();
  }
  mkdirSync(join(path, "..", "runs"), { recursive: true });
  return path;
}

beforeAll(async () => {
  await cliBundle();
  for (const file of SENTINELS) {
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, "must survive\n");
  }
  ok("sweep", ...PROBES, "--db", base, "--run-id", "base-run");
}, 120_000);

describe("the reproductions", { timeout: 120_000 }, () => {
  it("--run-id .. is refused; a second sweep and a prune keep o/ and its database", () => {
    const first = gatecheck("sweep", ...PROBES, "--run-id", "..", "--db", "o/gc.db");
    expect(first.code, first.err).toBe(2);
    expect(first.err).toContain('--run-id: ".." is not a run id');
    expect(existsSync(join(work, "o"))).toBe(false);
    ok("sweep", ...PROBES, "--db", "o/gc.db");
    ok("sweep", ...PROBES, "--db", "o/gc.db");
    ok("prune", "--keep", "1", "--db", "o/gc.db");
    expect(existsSync(join(work, "o", "gc.db"))).toBe(true);
    expect(readdirSync(join(work, "o", "runs"))).toHaveLength(1);
    sentinelsSurvive();
  });

  it("--run-id . is refused; a prune keeps the kept run's folder", () => {
    ok("sweep", ...PROBES, "--db", "dot/gc.db", "--run-id", "night-1");
    const before = snapshot();
    const dot = gatecheck("sweep", ...PROBES, "--run-id", ".", "--db", "dot/gc.db");
    expect(dot.code, dot.err).toBe(2);
    expect(dot.err).toContain('--run-id: "." is not a run id');
    expect(snapshot()).toEqual(before);
    ok("sweep", ...PROBES, "--db", "dot/gc.db", "--run-id", "night-2");
    ok("prune", "--keep", "1", "--db", "dot/gc.db");
    expect(readdirSync(join(work, "dot", "runs"))).toEqual(["night-2"]);
  });

  it("a merge input holding run ../../../victim is refused; a prune after deletes nothing up there", () => {
    const input = renamedCopy(join(root, "inputs", "victim.db"), "../../../victim");
    mkdirSync(join(work, "m"));
    const before = snapshot();
    const merge = gatecheck("merge", "m/gc.db", base, input);
    expect(merge.code, merge.err).toBe(2);
    expect(merge.err).toContain(
      `merge input ${input}: "../../../victim" is not a run id (a run id is 1 to 80 letters, digits, . _ -, starting with a letter or digit`,
    );
    expect(merge.err).toContain("nothing was merged");
    expect(snapshot()).toEqual(before);
    // m/runs/../../../victim is a/victim: what the prune of a merged database deleted.
    gatecheck("prune", "--keep", "1", "--db", "m/gc.db");
    sentinelsSurvive();
  });

  it("prune refuses a database whose old run is named .., and deletes nothing", () => {
    const db = withOlderRun(join(work, "p", "gc.db"), "..");
    const before = snapshot();
    const prune = gatecheck("prune", "--keep", "1", "--db", db);
    expect(prune.code, prune.err).toBe(2);
    expect(prune.err).toContain('a run in the database: ".." is not a run id');
    expect(snapshot()).toEqual(before);
    sentinelsSurvive();
  });
});

const HOSTILE: Record<string, string> = {
  "..": "..",
  ".": ".",
  "../../x": "../../x",
  "a/b": "a/b",
  "a\\b": "a\\b",
  "a newline and HTML": "run\n<script>alert(1)</script>",
  "81 characters": "r".repeat(81),
  "an absolute path": join(root, "a", "victim"),
  "a leading dot": ".hidden",
  "a leading dash": "-rf",
};

/** The same CLI in this process (its start costs more than the command on a busy machine). */
const cli = (...args: string[]) => runCli(COMMANDS, args);

describe("hostile run ids at every door", { timeout: 120_000 }, () => {
  let n = 0;
  for (const [label, id] of Object.entries(HOSTILE)) {
    it(`${label}: exit 2 and a message, nothing outside the named folders touched`, async () => {
      n += 1;
      const input = renamedCopy(join(root, "inputs", `in-${n}.db`), id);
      const poisoned = withOlderRun(join(root, "poisoned", `p-${n}`, "gc.db"), id);
      const out = join(work, `out-${n}`);
      const doors: [string, string[]][] = [
        ["--run-id", ["sweep", ...PROBES, "--db", join(out, "gc.db"), `--run-id=${id}`]],
        ["--resume", ["sweep", ...PROBES, "--db", base, `--resume=${id}`]],
        ["report RUN", ["report", "--db", base, "--md", join(out, "m.md"), "--", id]],
        ["diff RUN_A", ["diff", "--db", base, "--", id, "base-run"]],
        ["--run", ["export", "--db", base, `--run=${id}`, ...cellOf()]],
        ["rescore RUN", ["rescore", "--db", base, "--", id]],
        [`merge input ${input}`, ["merge", join(out, "merged.db"), input]],
        ["a run in the database", ["prune", "--keep", "1", "--db", poisoned]],
        ["a run in the database", ["report", "--db", poisoned]],
      ];
      for (const [where, args] of doors) {
        const before = snapshot();
        const run = await cli(...args);
        expect(run.code, `${args.join(" ")}\n${run.err}`).toBe(2);
        expect(run.err).toContain(`${where}: ${JSON.stringify(id).slice(0, 40)}`);
        expect(run.err).toContain("is not a run id");
        expect(snapshot(), args.join(" ")).toEqual(before);
      }
      expect(existsSync(out)).toBe(false);
      sentinelsSurvive();
    });
  }
});

/** A cell of the base run, for `export`'s selection. */
function cellOf(): string[] {
  const db = new Database(base, { readonly: true });
  try {
    const cell = db
      .prepare('SELECT "column", route_id, probe_id, mode FROM cells LIMIT 1')
      .get() as { column: string; route_id: string; probe_id: string; mode: string };
    return [
      ...["--column", cell.column, "--route", cell.route_id],
      ...["--probe", cell.probe_id, "--mode", cell.mode],
    ];
  } finally {
    db.close();
  }
}
