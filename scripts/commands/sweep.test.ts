/**
 * What `gatecheck sweep` refuses before it starts: each case exits 2 with a message naming
 * the flag, and leaves the folder exactly as it was. The real bin in a child process, as a
 * user runs it; a read-only path is a folder made read-only for root too (read-only-folder.ts).
 */
import { type SpawnSyncOptions, spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resumeCommand } from "../actions/sweep-resume-hint.ts";
import { cliBundle } from "../cli-bundle.mjs";
import { registerSweep } from "./sweep.ts";
import { makeReadOnly } from "./testing/read-only-folder.ts";

const BIN = join(import.meta.dirname, "..", "gatecheck.mjs");
const SMALL = ["--gateways", "direct", "--probes", "am-temperature", "--repeats", "1"];
const dir = mkdtempSync(join(tmpdir(), "gatecheck-sweep-cli-"));
chmodSync(dir, 0o755);
let writableAgain = () => {};
beforeAll(() => cliBundle(), 60_000);
afterAll(() => {
  writableAgain();
  rmSync(dir, { recursive: true, force: true });
});

function sweep(args: string[], options: SpawnSyncOptions = {}) {
  const result = spawnSync(process.execPath, [BIN, "sweep", ...SMALL, ...args], {
    cwd: dir,
    encoding: "utf8",
    ...options,
  });
  return { code: result.status, out: String(result.stdout), err: String(result.stderr) };
}

/**
 * Every path under the folder with its size and mtime: what "nothing written" compares.
 * Leaves out SQLite's `-shm`/`-wal` files, which any reader of a WAL database makes (and
 * `gatecheck query` as much as the check of a run id): the database itself may not change.
 */
function snapshot(): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => !/\.db-(shm|wal)$/.test(name))
    .sort()
    .map((name) => {
      const stats = statSync(join(dir, name), { throwIfNoEntry: false });
      return `${name} ${stats?.isFile() ? `${stats.size} ${stats.mtimeMs}` : ""}`;
    });
}

function expectRefused(args: string[], message: RegExp, options: SpawnSyncOptions = {}) {
  const before = snapshot();
  const result = sweep(args, options);
  expect(result.err).toMatch(message);
  expect(result.err).not.toMatch(/\n\s+at /); // a message, not a stack trace
  expect(result.code).toBe(2);
  expect(snapshot()).toEqual(before);
}

describe("gatecheck sweep refuses before it starts", { timeout: 300_000 }, () => {
  beforeAll(() => {
    writeFileSync(join(dir, "a-file"), "not a folder");
    mkdirSync(join(dir, "a-folder"));
    symlinkSync(join(dir, "a-folder"), join(dir, "link-to-folder"));
    spawnSync("mkfifo", [join(dir, "a-fifo")]);
    mkdirSync(join(dir, "ro"));
    mkdirSync(join(dir, "writable"));
    chmodSync(join(dir, "writable"), 0o777);
    writeFileSync(join(dir, "ro", "old.db"), "");
    chmodSync(join(dir, "ro", "old.db"), 0o444);
    writableAgain = makeReadOnly(join(dir, "ro"));
    mkdirSync(join(dir, "probes"));
    writeFileSync(
      join(dir, "probes", "mine.json"),
      JSON.stringify([
        {
          id: "oc-no-such-field",
          client: "openai-chat",
          axis: "request",
          field: "no_such_field",
          request: { no_such_field: 1 },
          modes: ["non-stream"],
          severity: "low",
          note: "a field no checker knows",
        },
      ]),
    );
  });

  it("an --out that names a file, a FIFO", () => {
    expectRefused(
      ["--db", "x.db", "--out", "a-file"],
      /--out a-file is a file; --out takes a folder/,
    );
    expectRefused(["--db", "x.db", "--out", "a-fifo"], /--out a-fifo is a FIFO/);
  });

  it("a --db that is a symbolic link to a folder, a FIFO, or under a file", () => {
    expectRefused(["--db", "link-to-folder"], /--db link-to-folder is a symbolic link to a folder/);
    expectRefused(["--db", "a-fifo"], /--db a-fifo is a FIFO/);
    expectRefused(["--db", "a-file/x.db"], /a-file is a file, so the file cannot be made there/);
  });

  it("a read-only --db or --out", () => {
    expectRefused(["--db", "ro/old.db", "--out", "out"], /--db ro\/old.db is read-only/);
    expectRefused(["--db", "ro/new.db", "--out", "out"], /ro is read-only/);
    expectRefused(["--db", "writable/x.db", "--out", "ro"], /--out ro is read-only/);
  });

  it("an unknown run to resume, and a --run-id already taken", () => {
    expectRefused(["--db", "none.db", "--resume", "nope"], /no results database at none.db/);
    const first = sweep(["--db", "runs.db", "--run-id", "night-1"]);
    expect(first.code).toBe(0);
    expectRefused(
      ["--db", "runs.db", "--resume", "nope"],
      /--resume nope: no such run in runs.db \(the latest is night-1\)/,
    );
    expectRefused(
      ["--db", "runs.db", "--run-id", "night-1"],
      /already has that run; continue it with --resume night-1/,
    );
  });

  it("a column named twice (a version or variant apart is a column of its own)", () => {
    expectRefused(
      ["--db", "x.db", "--gateways", "portkey@1.15.2,direct,portkey"],
      /--gateways names portkey@1\.15\.2 twice/,
    );
  });

  it("a user probe that fails the self-check, as `probes check` would find it", () => {
    expectRefused(
      ["--db", "x.db", "--probes-dir", "probes", "--probes", "oc-no-such-field"],
      /1 probe\(s\) fail the self-check.*oc-no-such-field[\s\S]*cannot-pass/,
    );
  });
});

describe("gatecheck sweep --db without --out", { timeout: 300_000 }, () => {
  it("writes the matrix beside the database, never over results/", () => {
    mkdirSync(join(dir, "results"), { recursive: true });
    writeFileSync(join(dir, "results", "MATRIX.md"), "another run's matrix\n");
    const result = sweep(["--db", "elsewhere/mine.db"]);
    expect(result.code).toBe(0);
    expect(result.out).toContain(`matrix: ${join("elsewhere", "MATRIX.md")}`);
    expect(readdirSync(join(dir, "elsewhere")).sort()).toEqual(
      expect.arrayContaining(["MATRIX.md", "mine.db", "report.html", "runs", "summary.json"]),
    );
    expect(readdirSync(join(dir, "results"))).toEqual(["MATRIX.md"]);
  });
});

describe("the resume hint", { timeout: 300_000 }, () => {
  it("repeats the selection the command line gave, with the run's --db and --out", async () => {
    const program = new Command().exitOverride();
    registerSweep(program);
    const sweepCommand = program.commands[0]!;
    sweepCommand.action(() => {});
    await program.parseAsync(
      ["sweep", "--gateways", "direct", "--probes", "am-*", "--json", "--db", "a b.db"],
      { from: "user" },
    );
    expect(resumeCommand(sweepCommand, "run-1", "a b.db", ".")).toBe(
      "npx gatecheck sweep --gateways direct --probes 'am-*' --db 'a b.db' --out . --resume run-1",
    );
  });
});
