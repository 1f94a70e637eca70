import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MIGRATIONS } from "./migrations.ts";
import { ResultsError } from "./results-error.ts";
import { SCHEMA_VERSION } from "./schema.ts";
import { newRunId, openStore, openStoreReadonly } from "./store.ts";
import { fixtureCells, writeFixtureRun } from "./testing/fixture-run.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-store-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const RUN = "2026-11-30T02-10-00Z-ab12";

/**
 * A database one schema version behind: the last migration replaces what it creates (DROP,
 * then CREATE), so a current file marked one version older migrates as an older one would.
 */
function olderDatabase(name: string): string {
  const path = join(dir, name);
  openStore(path).close();
  const raw = new Database(path);
  raw.pragma(`user_version = ${SCHEMA_VERSION - 1}`);
  raw.close();
  return path;
}

describe("schema", () => {
  it("migrates a new file to the current user_version in WAL mode", () => {
    const store = openStore(join(dir, "a.db"));
    expect(store.db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
    store.close();
  });

  it("refuses a database newer than this code, naming the file", () => {
    const path = join(dir, "future.db");
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openStore(path)).toThrow(
      new RegExp(`future\\.db: schema version ${SCHEMA_VERSION + 1} is newer`),
    );
  });

  it("read-only open of an older database migrates it first, as the next sweep would", () => {
    const path = olderDatabase("older.db");
    const store = openStoreReadonly(path);
    expect(store.db.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    store.close();
  });

  it("read-only open of an older database it cannot migrate is an error that says what to do", () => {
    const path = olderDatabase("older-busy.db");
    const raw = new Database(path);
    // Another writer holds the file: a reader can still read it (WAL), a migration cannot write.
    raw.exec("BEGIN EXCLUSIVE");
    try {
      expect(() => openStoreReadonly(path)).toThrow(
        /schema version \d+, expected \d+, and it cannot be migrated here \(database is locked\): copy it somewhere writable/,
      );
    } finally {
      raw.exec("ROLLBACK");
      raw.close();
    }
  });

  it("read-only open of a file with no gatecheck schema or a newer one is an error", () => {
    const plain = join(dir, "plain.db");
    new Database(plain).close();
    expect(() => openStoreReadonly(plain)).toThrow(/schema version 0 is not a gatecheck/);
    const future = join(dir, "future-r.db");
    const raw = new Database(future);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openStoreReadonly(future)).toThrow(/newer than this gatecheck knows.*upgrade/);
  });

  it("read-only open of a missing file is an error, and creates nothing", () => {
    expect(() => openStoreReadonly(join(dir, "missing.db"))).toThrow(ResultsError);
    const writable = openStore(join(dir, "b.db"));
    writable.close();
    expect(() => openStoreReadonly(join(dir, "b.db"))).not.toThrow();
  });
});

describe("newRunId", () => {
  it("is a sortable UTC stamp with a suffix", () => {
    expect(newRunId(new Date("2026-11-30T02:10:00.123Z"), "ab12")).toBe(RUN);
    expect(newRunId()).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-[0-9a-f]{4}$/);
  });
});

describe("store round trip", () => {
  it("reads back exactly what the writer wrote", () => {
    const store = openStore(join(dir, "rt.db"));
    writeFixtureRun(store, { runId: RUN, startedAt: "2026-11-30T02:10:00.000Z" });
    const expected = fixtureCells({ runId: RUN, startedAt: "" });
    const cells = store.cells(RUN);
    expect(cells).toHaveLength(expected.length);
    const portkey = cells.find(
      (c) =>
        c.column === "portkey@1.15.2+locked" &&
        c.probeId === "am-disable-parallel-tool-use" &&
        c.routeId === "anthropic-messages->openai-chat" &&
        c.mode === "non-stream",
    );
    expect(portkey).toMatchObject({
      verdict: "mangled",
      determinism: 3,
      runs: 5,
      stable: false,
      cause: "malformed",
      counts: { mangled: 3, preserved: 2 },
    });
    expect(portkey?.knownIssue).toBeUndefined();
    const attempts = [...store.iterateAttempts(RUN)];
    expect(attempts).toHaveLength(expected.reduce((n, c) => n + c.attempts.length, 0));
    expect(store.countAttempts(RUN)).toBe(attempts.length);
    const first = expected[0]?.attempts[0];
    expect(
      attempts.find(
        (a) =>
          a.probeId === first?.probeId &&
          a.column === first?.column &&
          a.routeId === first?.routeId &&
          a.mode === first?.mode &&
          a.phase === "main",
      ),
    ).toEqual(first);
    expect(store.gatewayRuns(RUN).map((g) => `${g.column}:${g.status}`)).toEqual([
      "claude-code-router@2.0.0:not-run",
      "direct@0.1.0:ok",
      "litellm@1.74.0:ok",
      "portkey@1.15.2+locked:ok",
    ]);
    expect(store.requireRun(RUN)).toMatchObject({
      status: "done",
      gitSha: "abc1234",
      args: { repeats: 5 },
    });
    expect(store.probesOfRun(RUN)).toHaveLength(5);
    store.close();
  });

  it("gives one cell's attempts and its history across runs and version bumps", () => {
    const store = openStore(join(dir, "hist.db"));
    writeFixtureRun(store, {
      runId: "2026-11-23T02-10-00Z-aaaa",
      startedAt: "2026-11-23T02:10:00.000Z",
    });
    writeFixtureRun(store, {
      runId: RUN,
      startedAt: "2026-11-30T02:10:00.000Z",
      versions: { portkey: "1.16.0" },
    });
    const key = {
      routeId: "openai-chat->anthropic-messages",
      probeId: "oc-tools-strict",
      mode: "stream" as const,
    };
    const attempts = store.attemptsOfCell(RUN, { ...key, column: "portkey@1.16.0+locked" });
    expect(attempts.map((a) => `${a.phase}#${a.attemptNo}:${a.verdicts[0]?.verdict}`)).toEqual([
      "control#1:preserved",
      "main#1:dropped",
      "repeat#1:dropped",
      "repeat#2:dropped",
      "repeat#3:dropped",
      "repeat#4:dropped",
    ]);
    const history = store.cellHistory("portkey", key);
    expect(history.map((c) => `${c.runId} ${c.column} ${c.verdict}`)).toEqual([
      `${RUN} portkey@1.16.0+locked dropped`,
      "2026-11-23T02-10-00Z-aaaa portkey@1.15.2+locked dropped",
    ]);
    store.close();
  });

  it("updates a cell in place when repeats arrive, adding only the new attempts", () => {
    const store = openStore(join(dir, "up.db"));
    store.beginRun({
      id: RUN,
      startedAt: "2026-11-30T02:10:00Z",
      gatecheckVersion: "0.1.0",
      args: {},
    });
    const [unit] = fixtureCells({ runId: RUN, startedAt: "" });
    if (!unit) throw new Error("fixture has no cells");
    const writer = store.cellWriter();
    writer.add({
      cell: { ...unit.cell, verdict: "dropped", runs: 1, determinism: 1 },
      attempts: unit.attempts,
    });
    writer.flush();
    const repeat = { ...unit.attempts[0]!, phase: "repeat" as const, attemptNo: 1 };
    writer.add({
      cell: { ...unit.cell, verdict: "dropped", runs: 2, determinism: 2 },
      attempts: [repeat],
    });
    writer.close();
    expect(store.cells(RUN)).toHaveLength(1);
    expect(store.doneCells(RUN)[0]).toMatchObject({ verdict: "dropped", runs: 2 });
    expect(store.countAttempts(RUN)).toBe(2);
    store.close();
  });

  it("refuses a duplicate attempt naming it, and still writes the good units of the batch", () => {
    const store = openStore(join(dir, "dup.db"));
    store.beginRun({
      id: RUN,
      startedAt: "2026-11-30T02:10:00Z",
      gatecheckVersion: "0.1.0",
      args: {},
    });
    const [a, b] = fixtureCells({ runId: RUN, startedAt: "" });
    if (!a || !b) throw new Error("fixture too small");
    const writer = store.cellWriter({ batchRows: 1000 });
    writer.add(a);
    writer.add({ cell: a.cell, attempts: a.attempts }); // same attempt numbers again
    writer.add(b);
    expect(() => writer.flush()).toThrow(
      /attempt main #1 of cell direct@0\.1\.0 \| anthropic-messages->anthropic-messages \| am-stop-sequences \| non-stream/,
    );
    expect(store.cells(RUN)).toHaveLength(2);
    expect(store.countAttempts(RUN)).toBe(a.attempts.length + b.attempts.length);
    store.close();
  });

  it("refuses a verdict outside the vocabulary, on write and on read", () => {
    const store = openStore(join(dir, "vocab.db"));
    store.beginRun({
      id: RUN,
      startedAt: "2026-11-30T02:10:00Z",
      gatecheckVersion: "0.1.0",
      args: {},
    });
    const [a, b] = fixtureCells({ runId: RUN, startedAt: "" });
    const writer = store.cellWriter();
    writer.add({ cell: { ...a!.cell, verdict: "lost" as never }, attempts: [] });
    expect(() => writer.flush()).toThrow(/verdict "lost" is not one of preserved/);
    writer.add(b!);
    writer.close();
    store.db.prepare("UPDATE cells SET verdict = 'gone'").run();
    expect(() => store.cells(RUN)).toThrow(
      /cell direct@0\.1\.0 \| anthropic-messages->anthropic-messages \| am-stop-sequences \| stream in run .*: verdict "gone"/,
    );
    store.close();
  });

  it("refuses attempts queued with another cell", () => {
    const store = openStore(join(dir, "mix.db"));
    const [a, b] = fixtureCells({ runId: RUN, startedAt: "" });
    const writer = store.cellWriter();
    expect(() => writer.add({ cell: a!.cell, attempts: b!.attempts })).toThrow(/queued with cell/);
    store.close();
  });

  it("flushes on its own once batchRows rows are queued", () => {
    const store = openStore(join(dir, "batch.db"));
    store.beginRun({
      id: RUN,
      startedAt: "2026-11-30T02:10:00Z",
      gatecheckVersion: "0.1.0",
      args: {},
    });
    const units = fixtureCells({ runId: RUN, startedAt: "" }).slice(0, 10);
    const writer = store.cellWriter({ batchRows: 4, maxDelayMs: 0 });
    for (const u of units.slice(0, 2)) writer.add(u); // 2 cells + 2 attempts = 4 rows
    expect(store.cells(RUN)).toHaveLength(2);
    writer.add(units[2]!);
    expect(store.cells(RUN)).toHaveLength(2);
    writer.close();
    expect(store.cells(RUN)).toHaveLength(3);
    expect(() => writer.add(units[3]!)).toThrow(/closed/);
    store.close();
  });
});

describe("timed flush", () => {
  it("writes queued cells after maxDelayMs without waiting for a full batch", async () => {
    const store = openStore(join(dir, "timer.db"));
    store.beginRun({
      id: RUN,
      startedAt: "2026-11-30T02:10:00Z",
      gatecheckVersion: "0.1.0",
      args: {},
    });
    const [unit] = fixtureCells({ runId: RUN, startedAt: "" });
    const writer = store.cellWriter({ batchRows: 1000, maxDelayMs: 20 });
    writer.add(unit!);
    expect(store.cells(RUN)).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 80));
    expect(store.cells(RUN)).toHaveLength(1);
    expect(writer.written).toBe(1);
    writer.close();
    store.close();
  });

  it("a failed timed flush is reported by the next call, and close still writes the rest", async () => {
    const store = openStore(join(dir, "timer-fail.db"));
    store.beginRun({
      id: RUN,
      startedAt: "2026-11-30T02:10:00Z",
      gatecheckVersion: "0.1.0",
      args: {},
    });
    const [a, b] = fixtureCells({ runId: RUN, startedAt: "" });
    const writer = store.cellWriter({ batchRows: 1000, maxDelayMs: 20 });
    writer.add({ cell: { ...a!.cell, runId: "no-such-run" }, attempts: [] });
    await new Promise((r) => setTimeout(r, 80));
    expect(() => writer.add(b!)).toThrow(/in run no-such-run: FOREIGN KEY constraint failed/);
    writer.add(b!);
    expect(() => writer.close()).not.toThrow();
    expect(store.cells(RUN)).toHaveLength(1);
    store.close();
  });
});

describe("crash consistency", () => {
  it("a writer killed mid-run leaves whole cells only, and resume lists them", () => {
    const path = join(dir, "crash.db");
    const flushed = 7;
    const child = join(import.meta.dirname, "fixtures", "crash-writer.ts");
    let signal: string | null = null;
    try {
      execFileSync(process.execPath, ["--import", "tsx", child, path, String(flushed)], {
        stdio: "pipe",
      });
    } catch (error) {
      signal = (error as { signal: string | null }).signal;
    }
    expect(signal).toBe("SIGKILL");
    const store = openStore(path);
    expect(store.db.pragma("integrity_check", { simple: true })).toBe("ok");
    const runId = "2026-11-30T02-10-00Z-dead";
    expect(store.requireRun(runId).status).toBe("running");
    const expected = fixtureCells({ runId, startedAt: "" }).slice(0, flushed);
    const done = store.doneCells(runId);
    expect(done.map((d) => `${d.column}|${d.routeId}|${d.probeId}|${d.mode}`).sort()).toEqual(
      expected
        .map((e) => `${e.cell.column}|${e.cell.routeId}|${e.cell.probeId}|${e.cell.mode}`)
        .sort(),
    );
    expect(store.countAttempts(runId)).toBe(expected.reduce((n, e) => n + e.attempts.length, 0));
    // Resume: the rest is written without duplicates and the run completes.
    store.setRunStatus(runId, "running");
    const writer = store.cellWriter();
    const doneKeys = new Set(done.map((d) => `${d.column}|${d.routeId}|${d.probeId}|${d.mode}`));
    for (const unit of fixtureCells({ runId, startedAt: "" })) {
      if (
        !doneKeys.has(
          `${unit.cell.column}|${unit.cell.routeId}|${unit.cell.probeId}|${unit.cell.mode}`,
        )
      )
        writer.add(unit);
    }
    writer.close();
    store.finishRun(runId);
    expect(store.cells(runId)).toHaveLength(fixtureCells({ runId, startedAt: "" }).length);
    expect(store.requireRun(runId).status).toBe("done");
    store.close();
  });

  it("a writer killed at an arbitrary moment mid-transaction leaves no half-written cell", async () => {
    const path = join(dir, "crash-loop.db");
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(import.meta.dirname, "fixtures", "crash-loop-writer.ts"), path],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const exited = new Promise((r) => child.on("exit", r));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (d: Buffer) => {
          if (d.toString().includes("ready")) resolve();
        });
        child.on("exit", (code) => reject(new Error(`writer exited early with ${code}`)));
      });
      // Let it write a little longer, then kill it wherever it is.
      await new Promise((r) => setTimeout(r, 150));
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    const store = openStore(path);
    expect(store.db.pragma("integrity_check", { simple: true })).toBe("ok");
    const runId = "2026-11-30T02-10-00Z-loop";
    const cells = store.doneCells(runId);
    expect(cells.length).toBeGreaterThanOrEqual(200);
    const partial = store.db
      .prepare(
        `SELECT c.probe_id, count(a.attempt_no) AS n FROM cells c LEFT JOIN attempts a
         ON a.run_id = c.run_id AND a."column" = c."column" AND a.route_id = c.route_id
         AND a.probe_id = c.probe_id AND a.mode = c.mode
         WHERE c.run_id = ? GROUP BY c.probe_id HAVING n <> 5`,
      )
      .all(runId);
    expect(partial).toEqual([]);
    expect(store.countAttempts(runId)).toBe(cells.length * 5);
    store.close();
  });
});
