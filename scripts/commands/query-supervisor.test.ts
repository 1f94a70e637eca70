/**
 * `query --timeout` runs the statement in a child process: the child must end with the
 * command. A signal to the command alone (a supervisor stopping its own child) is forwarded;
 * a command killed outright is noticed by the child's watch (scripts/parent-watch.ts). A real
 * statement that never returns, the real bin, the child's pid read from /proc.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../results/store.ts";
import { cliBundle } from "../cli-bundle.mjs";

const BIN = join(import.meta.dirname, "..", "gatecheck.mjs");
const dir = mkdtempSync(join(tmpdir(), "gatecheck-query-supervisor-"));
const db = join(dir, "r.db");
const ENDLESS =
  "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
/** Every child pid seen, stopped by pid at the end should a test fail midway. */
const seen: number[] = [];

beforeAll(async () => {
  openStore(db).close();
  await cliBundle();
}, 60_000);
afterAll(() => {
  for (const pid of seen) if (alive(pid)) process.kill(pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .split(" ")
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `query --timeout 600` of a statement that never ends, and the pid of the child running it. */
async function endlessQuery(): Promise<{ command: ChildProcess; child: number }> {
  const command = spawn(process.execPath, [BIN, "query", ENDLESS, "--db", db, "--timeout", "600"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let child = 0;
  await until("the query's child", () => {
    child = childrenOf(command.pid ?? 0)[0] ?? 0;
    return child > 0;
  });
  seen.push(child);
  // Let it start the statement (the child's own start, then SQLite spinning).
  await new Promise((r) => setTimeout(r, 1500));
  expect(alive(child)).toBe(true);
  return { command, child };
}

describe("query --timeout's child ends with the command", { timeout: 120_000 }, () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`when only the command gets ${signal}`, async () => {
      const { command, child } = await endlessQuery();
      let err = "";
      command.stderr?.on("data", (d) => {
        err += d;
      });
      const exited = once(command, "exit");
      command.kill(signal);
      const [code] = await exited;
      await until("the child's end", () => !alive(child), 5_000);
      expect(err).toContain(`query stopped by ${signal}`);
      expect(code).toBe(130);
    });
  }

  it("when the command is killed outright (SIGKILL)", async () => {
    const { command, child } = await endlessQuery();
    const exited = once(command, "exit");
    command.kill("SIGKILL");
    await exited;
    await until("the child's end", () => !alive(child), 5_000);
  });
});
