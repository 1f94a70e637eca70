/**
 * A database the commands cannot use (in a read-only folder, not a database, a missing
 * folder, locked by a writer) is a message naming it and what to do, exit 2, never a SQLite
 * stack trace; `serve` refuses it at start, and answers 503 with the message when it turns
 * unusable while serving. The real bin in a child process, as a user runs it.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReportApp } from "../../results/html/report-app.ts";
import { writeSampleRuns } from "../../results/html/testing/sample-runs.ts";
import { cliBundle } from "../cli-bundle.mjs";
import { makeReadOnly } from "./testing/read-only-folder.ts";

const BIN = join(import.meta.dirname, "..", "gatecheck.mjs");
const dir = mkdtempSync(join(tmpdir(), "gatecheck-storage-"));
const ro = join(dir, "ro");
const roDb = join(ro, "r.db");
let runs: [string, string] = ["", ""];
let writableAgain = () => {};

beforeAll(async () => {
  mkdirSync(ro);
  runs = writeSampleRuns(roDb);
  writableAgain = makeReadOnly(ro);
  writeFileSync(join(dir, "text.db"), "not a database, a text file\n");
  await cliBundle();
}, 60_000);
afterAll(() => {
  writableAgain();
  rmSync(dir, { recursive: true, force: true });
});

function gatecheck(args: string[]) {
  // A bounded wait: a `serve` that starts on a database it cannot read would never end.
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    encoding: "utf8",
    timeout: 30_000,
    killSignal: "SIGKILL",
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

function expectMessage(args: string[], message: RegExp) {
  const run = gatecheck(args);
  expect(run.err).toMatch(message);
  expect(run.err).not.toMatch(/\n\s+at |SqliteError/); // a message, not a stack trace
  expect(run.code).toBe(2);
}

const READ_ONLY =
  /cannot open results database .*r\.db: its folder .*ro is read-only.*copy it somewhere writable/;

describe("a database in a read-only folder", { timeout: 120_000 }, () => {
  it("query, report, diff, export and merge say so and exit 2", () => {
    expectMessage(["query", "SELECT 1", "--db", roDb], READ_ONLY);
    expectMessage(["query", "SELECT 1", "--db", roDb, "--timeout", "30"], READ_ONLY);
    expectMessage(["report", "--db", roDb], READ_ONLY);
    expectMessage(["report", "--db", roDb, "--json"], READ_ONLY);
    expectMessage(["diff", runs[0], runs[1], "--db", roDb], READ_ONLY);
    expectMessage(["export", "--attempt-id", "1", "--db", roDb], READ_ONLY);
    expectMessage(["merge", join(dir, "merged.db"), roDb], READ_ONLY);
  });

  it("serve refuses it at start", () => {
    expectMessage(["serve", "--port", "0", "--db", roDb], READ_ONLY);
  });

  it("a page served from it is a 503 with the message, not a 500", async () => {
    const app = createReportApp({ dbPath: roDb });
    const page = await app.request("/");
    expect(page.status).toBe(503);
    expect(await page.text()).toMatch(/its folder .*ro is read-only/);
    const api = await app.request("/api/runs");
    expect(api.status).toBe(503);
    expect(((await api.json()) as { error: string }).error).toMatch(READ_ONLY);
  });
});

describe("other databases no command can use", { timeout: 120_000 }, () => {
  it("not a database, a missing folder, a missing file", () => {
    expectMessage(["query", "SELECT 1", "--db", "text.db"], /text\.db: not a SQLite database/);
    expectMessage(["report", "--db", "text.db"], /text\.db: not a SQLite database/);
    expectMessage(["merge", "out.db", "text.db"], /text\.db: not a SQLite database/);
    expectMessage(["diff", "--db", "none/r.db"], /none\/r\.db/);
    expectMessage(["query", "SELECT 1", "--db", "none.db"], /none\.db: no such file/);
  });

  it("a database a writer holds locked", () => {
    const db = join(dir, "locked.db");
    writeSampleRuns(db);
    const holder = new Database(db);
    try {
      holder.pragma("locking_mode = EXCLUSIVE");
      holder.exec("BEGIN EXCLUSIVE; UPDATE runs SET status = status; ");
      expectMessage(["query", "SELECT 1", "--db", db], /locked\.db: locked by another process/);
    } finally {
      holder.close();
    }
  });
});
