/**
 * A sweep whose disk fills up: a real 1 MiB file system (tmpfs, mounted as root, as CI runs)
 * holds the database and outputs. The sweep must say what happened, mark the run
 * `interrupted`, print the resume command and exit 2, never a stack trace or a run left
 * `running`; once there is room, the printed command finishes the run with the verdicts of a
 * run the disk never stopped.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStoreReadonly } from "../../results/store.ts";
import { cliBundle } from "../cli-bundle.mjs";

const BIN = join(import.meta.dirname, "..", "gatecheck.mjs");
const dir = mkdtempSync(join(tmpdir(), "gatecheck-disk-full-"));
const small = join(dir, "small");
const SELECTION = ["--gateways", "direct", "--probes", "oc-*", "--repeats", "1"];
let mounted = false;

function run(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: "ignore" }).status === 0;
}

beforeAll(async () => {
  mkdirSync(small);
  mounted = run("mount", ["-t", "tmpfs", "-o", "size=1m,mode=0755", "tmpfs", small]);
  if (!mounted) {
    throw new Error(
      "this test fills a real 1 MiB file system: it needs root with CAP_SYS_ADMIN (mount -t tmpfs), as CI runs",
    );
  }
  await cliBundle();
}, 60_000);
afterAll(() => {
  if (mounted) run("umount", ["-l", small]);
  rmSync(dir, { recursive: true, force: true });
});

function gatecheck(args: string[], cwd = dir) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 240_000,
    killSignal: "SIGKILL",
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

function verdicts(db: string, runId: string): string[] {
  const store = openStoreReadonly(db);
  try {
    return store
      .cells(runId)
      .map(
        (c) =>
          `${c.column} ${c.routeId} ${c.probeId} ${c.mode}: ${c.verdict} ${c.determinism}/${c.runs} ${c.controlVerdict ?? ""}`,
      )
      .sort();
  } finally {
    store.close();
  }
}

function statusOf(db: string, runId: string): string | undefined {
  const store = openStoreReadonly(db);
  try {
    return store.getRun(runId)?.status;
  } finally {
    store.close();
  }
}

describe("a sweep on a disk that fills up", { timeout: 600_000 }, () => {
  it("is stopped with a message, marked interrupted, and resumes to a clean run's verdicts", () => {
    const db = join(small, "gc.db");
    const full = gatecheck(["sweep", ...SELECTION, "--run-id", "full-1", "--db", db]);
    expect(full.err).toMatch(
      /the sweep stopped: .*the disk \(or the file system holding it\) is full/,
    );
    expect(full.err).toMatch(/run full-1 is marked interrupted; the cells stored are kept/);
    expect(full.err).not.toMatch(/\n\s+at |SqliteError/);
    expect(full.code).toBe(2);
    const resume = full.err.match(/resume with: (npx gatecheck sweep .*--resume full-1)$/m)?.[1];
    expect(resume).toBeDefined();
    expect(readdirSync(small).filter((name) => name.includes(".tmp-"))).toEqual([]);

    // Room again: the printed command, as a user runs it (the bin for `npx gatecheck`).
    expect(run("mount", ["-o", "remount,size=64m", small])).toBe(true);
    expect(statusOf(db, "full-1")).toBe("interrupted");
    const words = (resume ?? "").split(" ").slice(2);
    const resumed = gatecheck(words.map((w) => w.replace(/^'(.*)'$/, "$1")));
    expect(resumed.code, resumed.err).toBe(0);
    expect(statusOf(db, "full-1")).toBe("done");

    // The same sweep on a disk with room, for the verdicts of an uninterrupted run.
    const clean = join(dir, "clean", "gc.db");
    expect(gatecheck(["sweep", ...SELECTION, "--run-id", "full-1", "--db", clean]).code).toBe(0);
    const expected = verdicts(clean, "full-1");
    expect(expected.length).toBeGreaterThan(100);
    expect(verdicts(db, "full-1")).toEqual(expected);
  });
});
