import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "./store.ts";
import { writeFixtureRun } from "./testing/fixture-run.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-delete-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const count = (store: ReturnType<typeof openStore>, sql: string) =>
  store.db.prepare(sql).pluck().get() as number;

describe("deleting rows", () => {
  it("deletes chosen cells with their attempts, and the bytes only they referred to", () => {
    const store = openStore(join(dir, "cells.db"));
    try {
      const runId = "night-1";
      writeFixtureRun(store, { runId, startedAt: "2026-11-23T02:10:00.000Z" });
      const cells = store.cells(runId);
      const withAttempts = cells.find((c) => c.runs > 1)!;
      const attemptsBefore = store.countAttempts(runId);
      const mine = count(
        store,
        `SELECT count(*) FROM judgements WHERE run_id = '${runId}' AND probe_id = '${withAttempts.probeId}' AND route_id = '${withAttempts.routeId}' AND "column" = '${withAttempts.column}' AND mode = '${withAttempts.mode}'`,
      );
      store.deleteCells(runId, [withAttempts]);
      expect(store.cells(runId).length).toBe(cells.length - 1);
      expect(store.countAttempts(runId)).toBe(attemptsBefore - mine);
      expect(
        count(
          store,
          "SELECT count(*) FROM exchanges WHERE id NOT IN (SELECT exchange_id FROM judgements)",
        ),
      ).toBe(0);
    } finally {
      store.close();
    }
  });

  it("deletes whole runs, keeping bytes another run still refers to", () => {
    const store = openStore(join(dir, "runs.db"));
    try {
      const [first, second] = ["night-1", "night-2"];
      writeFixtureRun(store, { runId: first, startedAt: "2026-11-23T02:10:00.000Z" });
      writeFixtureRun(store, { runId: second, startedAt: "2026-11-24T02:10:00.000Z" });
      // The second run's judgements point at the first's bytes too, as a rescore's do.
      store.db
        .prepare(
          "UPDATE judgements SET exchange_id = (SELECT min(id) FROM exchanges) WHERE run_id = ?",
        )
        .run(second);
      const deleted = store.deleteRuns([first]);
      expect(deleted.runs).toBe(1);
      expect(store.listRuns().map((r) => r.id)).toEqual([second]);
      expect(deleted.cells).toBeGreaterThan(0);
      expect(count(store, `SELECT count(*) FROM cells WHERE run_id = '${first}'`)).toBe(0);
      expect(count(store, `SELECT count(*) FROM gateway_runs WHERE run_id = '${first}'`)).toBe(0);
      expect(count(store, "SELECT count(*) FROM exchanges")).toBe(1);
      expect(store.countAttempts(second)).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });
});
