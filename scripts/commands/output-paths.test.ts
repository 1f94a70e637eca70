/**
 * The commands that write a file named on the command line (`report`, `export`, `merge`)
 * check it before they read anything: a folder, a FIFO or a read-only path is exit 2 with
 * the flag named, and nothing is written. (`sweep`'s paths: sweep.test.ts.)
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../results/store.ts";
import { writeFixtureRun } from "../../results/testing/fixture-run.ts";
import { cliBundle } from "../cli-bundle.mjs";
import { makeReadOnly } from "./testing/read-only-folder.ts";

const BIN = join(import.meta.dirname, "..", "gatecheck.mjs");
const dir = mkdtempSync(join(tmpdir(), "gatecheck-outputs-"));
chmodSync(dir, 0o755);
const db = join(dir, "r.db");
let writableAgain = () => {};
beforeAll(async () => {
  const store = openStore(db);
  writeFixtureRun(store, { runId: "R", startedAt: "2026-11-30T02:10:00.000Z" });
  store.close();
  mkdirSync(join(dir, "a-folder"));
  spawnSync("mkfifo", [join(dir, "a-fifo")]);
  mkdirSync(join(dir, "ro"));
  writableAgain = makeReadOnly(join(dir, "ro"));
  await cliBundle();
}, 60_000);
afterAll(() => {
  writableAgain();
  rmSync(dir, { recursive: true, force: true });
});

function refused(args: string[], message: RegExp) {
  const before = readdirSync(dir, { recursive: true }).sort();
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: "utf8" });
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.status).toBe(2);
  expect(readdirSync(dir, { recursive: true }).sort()).toEqual(before);
}

describe("files named on the command line are checked first", () => {
  it("report --md/--html/--junit/--json", () => {
    refused(["report", "--db", db, "--md", "a-folder"], /--md a-folder is a folder/);
    refused(["report", "--db", db, "--html", "a-fifo"], /--html a-fifo is a FIFO/);
    refused(["report", "--db", db, "--json", "a-fifo"], /--json a-fifo is a FIFO/);
    refused(["report", "--db", db, "--junit", "ro/junit.xml"], /ro is read-only/);
  });

  it("export --out, merge OUT", () => {
    const cell = [
      "--column",
      "portkey@1.15.2+locked",
      "--route",
      "openai-chat->anthropic-messages",
    ];
    refused(
      [
        "export",
        "--db",
        db,
        ...cell,
        "--probe",
        "oc-tools-strict",
        "--mode",
        "stream",
        "--out",
        "a-fifo",
      ],
      /--out a-fifo is a FIFO/,
    );
    refused(["merge", "a-folder", db], /OUT a-folder is a folder/);
  });
});
