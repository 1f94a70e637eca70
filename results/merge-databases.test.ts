import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loopKey, putLoop } from "./loop-records.ts";
import { mergeDatabases, mergeShards } from "./merge-databases.ts";
import { cellKeyString } from "./records.ts";
import { ATTEMPT_COLUMNS, quoted } from "./row-mapping.ts";
import { openStore, openStoreReadonly, type ResultsStore } from "./store.ts";
import { FIXTURE_OVERRIDES, writeFixtureRun } from "./testing/fixture-run.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-merge-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const RUN = "2026-11-30T02-10-00Z-ab12";
const STARTED = "2026-11-30T02:10:00.000Z";

/** A deterministic shard of a cell key (stand-in for the sweep's own split). */
function shardOf(key: string, n: number): number {
  let h = 0;
  for (const ch of key) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h % n;
}

const LOOP_COLUMN = "direct@0.1.0";
const LOOP_ROUTES = ["openai-chat->openai-chat", "anthropic-messages->anthropic-messages"];
const LOOP_VARIANT_IDS = ["plain", "system-note", "parallel", "error-result", "second-client"];

/** The run's agent loops (those `keep` takes), one of them broken, as the loop phase stores them. */
function writeFixtureLoops(
  store: ResultsStore,
  keep: (key: string) => boolean = () => true,
  reason = 'the backend issued call ids ["a"]; the results answer ["b"]',
): void {
  for (const routeId of LOOP_ROUTES) {
    for (const variant of LOOP_VARIANT_IDS) {
      if (!keep(loopKey(LOOP_COLUMN, routeId, variant))) continue;
      const [client = "", backend = ""] = routeId.split("->");
      const broke = variant === "parallel";
      putLoop(store.db, {
        runId: RUN,
        column: LOOP_COLUMN,
        routeId,
        variant,
        client,
        backend,
        status: broke ? "broke" : "completed",
        ...(broke ? { turn: 2, cause: "id-lost", reason } : {}),
        losses: variant === "error-result" ? ["result 1 lost its is_error flag"] : [],
        nonce: `gc-${variant}`,
        totalMs: 12,
        evidence: JSON.stringify({ turns: [], forwarded: [], routeId, variant }),
      });
    }
  }
}

function writeShards(n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const path = join(dir, `shard-${i + 1}.db`);
    const store = openStore(path);
    writeFixtureRun(store, {
      runId: RUN,
      startedAt: STARTED,
      shard: `${i + 1}/${n}`,
      keep: (cell) => shardOf(cellKeyString(cell), n) === i,
    });
    writeFixtureLoops(store, (key) => shardOf(key, n) === i);
    store.close();
    return path;
  });
}

/** Every table's rows, sorted, with the per-run finish time left out (it is a wall clock). */
function dump(path: string): Record<string, unknown[]> {
  const store = openStoreReadonly(path);
  const all = (sql: string) => store.db.prepare(sql).raw(true).all();
  const out = {
    runs: all(
      "SELECT id, started_at, status, gatecheck_version, git_sha, args, shard FROM runs ORDER BY id",
    ),
    gateway_runs: all('SELECT * FROM gateway_runs ORDER BY run_id, "column"'),
    probes: all("SELECT * FROM probes ORDER BY probe_id, definition_hash"),
    cells: all('SELECT * FROM cells ORDER BY run_id, "column", route_id, probe_id, mode'),
    loops: all('SELECT * FROM loops ORDER BY run_id, "column", route_id, variant'),
    // Every attempt column, not the storage ids (attempt_id, exchange_id) a merge renumbers.
    attempts: all(
      `SELECT ${quoted(ATTEMPT_COLUMNS)} FROM attempts
       ORDER BY run_id, "column", route_id, probe_id, mode, phase, attempt_no`,
    ),
  };
  store.close();
  return out;
}

/**
 * OUT holds one whole-run shard, merged; `other.db` holds what `write` puts in it. Returns
 * OUT's bytes before any other merge, to show a failed one left it as it was.
 */
function mergedThenOther(write: (store: ResultsStore) => void) {
  const out = join(dir, "out.db");
  const [base] = writeShards(1);
  if (!base) throw new Error("no shard");
  mergeDatabases(out, [base]);
  const before = readFileSync(out);
  const other = join(dir, "other.db");
  const store = openStore(other);
  write(store);
  store.close();
  return { out, base, before, other };
}

describe("mergeDatabases", () => {
  it("three shards of one run merge into exactly the single-run database", () => {
    const single = join(dir, "single.db");
    const store = openStore(single);
    writeFixtureRun(store, { runId: RUN, startedAt: STARTED });
    writeFixtureLoops(store);
    store.close();
    const shards = writeShards(3);
    // Every shard got some cells, none got all.
    for (const s of shards) {
      const n = dump(s).cells?.length;
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThan(50);
    }
    const report = mergeDatabases(join(dir, "merged.db"), shards);
    expect(report).toMatchObject({
      inputs: 3,
      runs: [RUN],
      cellsAdded: 50,
      cellsAlreadyPresent: 0,
      loopsAdded: LOOP_ROUTES.length * LOOP_VARIANT_IDS.length,
    });
    // The agent loops too: every shard had some, the merge has each once.
    expect(dump(join(dir, "merged.db")).loops).toHaveLength(
      LOOP_ROUTES.length * LOOP_VARIANT_IDS.length,
    );
    expect(dump(join(dir, "merged.db"))).toEqual(dump(single));
  });

  it("a run and its rescore keep sharing their exchanges through a merge", () => {
    const input = join(dir, "rescored.db");
    const store = openStore(input);
    writeFixtureRun(store, { runId: RUN, startedAt: STARTED });
    // A rescore's rows: a new run whose judgements point at the first run's exchanges.
    const rescore = "2026-11-30T03-00-00Z-re01";
    store.db
      .prepare(
        "INSERT INTO runs SELECT ?, started_at, finished_at, status, gatecheck_version, git_sha, args, shard FROM runs WHERE id = ?",
      )
      .run(rescore, RUN);
    store.db
      .prepare(
        `INSERT INTO judgements (run_id, "column", route_id, probe_id, mode, phase, attempt_no, verdicts_id, exchange_id)
         SELECT ?, "column", route_id, probe_id, mode, phase, attempt_no, verdicts_id, exchange_id FROM judgements WHERE run_id = ?`,
      )
      .run(rescore, RUN);
    const exchanges = store.db.prepare("SELECT count(*) FROM exchanges").pluck().get() as number;
    store.close();
    const out = join(dir, "out.db");
    // OUT already holds another run, so the input's exchange ids must move.
    const older = openStore(out);
    writeFixtureRun(older, {
      runId: "2026-11-23T02-10-00Z-old0",
      startedAt: "2026-11-23T02:10:00.000Z",
    });
    const before = older.db.prepare("SELECT count(*) FROM exchanges").pluck().get() as number;
    older.close();
    const report = mergeDatabases(out, [input]);
    expect(report.attemptsAdded).toBe(2 * exchanges);
    const merged = openStoreReadonly(out);
    try {
      expect(merged.db.prepare("SELECT count(*) FROM exchanges").pluck().get()).toBe(
        before + exchanges,
      );
      const bytesOf = (run: string) =>
        merged.db
          .prepare(
            `SELECT ${quoted(ATTEMPT_COLUMNS.filter((c) => c !== "run_id"))} FROM attempts
             WHERE run_id = ? ORDER BY "column", route_id, probe_id, mode, phase, attempt_no`,
          )
          .raw(true)
          .all(run);
      expect(bytesOf(rescore)).toEqual(bytesOf(RUN));
      expect(bytesOf(RUN).length).toBe(exchanges);
    } finally {
      merged.close();
    }
  });

  it("merging the same input twice adds nothing and is not a conflict", () => {
    const [one] = writeShards(1);
    const out = join(dir, "out.db");
    mergeDatabases(out, [one!]);
    const again = mergeDatabases(out, [one!]);
    expect(again).toMatchObject({
      cellsAdded: 0,
      cellsAlreadyPresent: 50,
      attemptsAdded: 0,
      loopsAdded: 0,
    });
  });

  it("more inputs than SQLite can attach at once still merge, all or nothing", () => {
    const shards = writeShards(12);
    const out = join(dir, "many.db");
    // OUT already holds an older run: it must survive the staging copy.
    const older = openStore(out);
    writeFixtureRun(older, {
      runId: "2026-11-23T02-10-00Z-old0",
      startedAt: "2026-11-23T02:10:00.000Z",
    });
    older.close();
    const report = mergeDatabases(out, shards);
    expect(report.cellsAdded).toBe(50);
    const merged = dump(out);
    expect(merged.cells).toHaveLength(100);
    expect(merged.runs?.map((r) => (r as unknown[])[6])).toEqual([null, null]); // 12 of 12: whole
    // A conflicting input among many: OUT unchanged, no staging file left behind.
    const before = readFileSync(out);
    const bad = join(dir, "bad.db");
    const store = openStore(bad);
    writeFixtureRun(store, {
      runId: RUN,
      startedAt: STARTED,
      overrides: {
        ...FIXTURE_OVERRIDES,
        "direct@0.1.0|oc-tools-strict|openai-chat->openai-chat|stream": {
          verdict: "dropped",
          reason: "x",
        },
      },
    });
    store.close();
    expect(() => mergeDatabases(out, [...shards, bad])).toThrow(/conflicting duplicate cell/);
    expect(readFileSync(out).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes("merging"))).toEqual([]);
  });

  it("a conflicting duplicate cell is an error naming it, and OUT stays as it was", () => {
    const { out, base, before, other } = mergedThenOther((store) =>
      writeFixtureRun(store, {
        runId: RUN,
        startedAt: STARTED,
        overrides: {
          ...FIXTURE_OVERRIDES,
          "litellm@1.74.0|oc-tools-strict|openai-chat->anthropic-messages|stream": {
            verdict: "dropped",
            reason: "absent",
          },
        },
      }),
    );
    const fresh = join(dir, "fresh.db");
    expect(() => mergeDatabases(fresh, [base, other])).toThrow(
      /other\.db: 1 conflicting duplicate cell\(s\); nothing was merged:\n {2}run 2026-11-30T02-10-00Z-ab12: litellm@1\.74\.0 \| openai-chat->anthropic-messages \| oc-tools-strict \| stream: preserved here, dropped in .*other\.db \(differs in verdict, reason, counts\)/,
    );
    expect(dump(fresh).cells).toHaveLength(0);
    expect(() => mergeDatabases(out, [other])).toThrow(/conflicting duplicate cell/);
    expect(readFileSync(out).equals(before)).toBe(true);
  });

  it("a conflicting duplicate agent loop is an error naming it, and OUT stays as it was", () => {
    const { out, before, other } = mergedThenOther((store) => {
      writeFixtureRun(store, { runId: RUN, startedAt: STARTED });
      writeFixtureLoops(store, undefined, "another reason");
    });
    expect(() => mergeDatabases(out, [other])).toThrow(
      /other\.db: 2 conflicting duplicate loop\(s\); nothing was merged:\n {2}run 2026-11-30T02-10-00Z-ab12: direct@0\.1\.0 \| anthropic-messages->anthropic-messages \| parallel \| loop: broke here, broke in .*other\.db/,
    );
    expect(readFileSync(out).equals(before)).toBe(true);
  });

  it("refuses an input holding a run id that is not one, naming both, among few inputs or many", () => {
    const shards = writeShards(12);
    const bad = shards[11]!;
    const db = openStore(bad).db;
    db.pragma("foreign_keys = OFF");
    for (const table of ["runs", "gateway_runs", "cells", "judgements", "loops"]) {
      db.prepare(`UPDATE ${table} SET ${table === "runs" ? "id" : "run_id"} = ?`).run("../../x");
    }
    db.close();
    const out = join(dir, "out.db");
    for (const inputs of [[bad], shards]) {
      expect(() => mergeDatabases(out, inputs)).toThrow(
        `merge input ${bad}: "../../x" is not a run id (a run id is 1 to 80 letters, digits, . _ -, starting with a letter or digit: one folder name under <out>/runs/); nothing was merged`,
      );
      expect(readdirSync(dir).filter((f) => f.startsWith("out.db"))).toEqual([]);
    }
  });

  it("refuses an input that is also the output, and a missing input", () => {
    const [one] = writeShards(1);
    expect(() => mergeDatabases(one!, [one!])).toThrow(/both an input and the output/);
    expect(() => mergeDatabases(join(dir, "o.db"), [join(dir, "nope.db")])).toThrow(
      /cannot open results database .*nope\.db/,
    );
  });
});

describe("merging one run's parts", () => {
  it("keeps a shard's gateway failure and an unfinished shard visible", () => {
    const [one, two] = writeShards(2);
    const second = openStore(two!);
    second.putGatewayRun({
      runId: RUN,
      gateway: "portkey",
      version: "1.15.2",
      column: "portkey@1.15.2+locked",
      status: "error",
      reason: "crashed twice",
      logPath: "results/runs/portkey-2.log",
    });
    second.setRunStatus(RUN, "running");
    second.close();
    const out = join(dir, "parts.db");
    mergeDatabases(out, [one!, two!]);
    const store = openStoreReadonly(out);
    expect(store.requireRun(RUN)).toMatchObject({
      status: "running",
      finishedAt: undefined,
      shard: undefined,
    });
    expect(store.gatewayRuns(RUN).find((g) => g.gateway === "portkey")).toMatchObject({
      status: "error",
      reason: "crashed twice",
      logPath: "results/runs/portkey.log",
    });
    store.close();
  });
});

describe("mergeShards", () => {
  it("joins shard labels and recognises a whole sweep", () => {
    expect(mergeShards("1/3", "2/3")).toBe("1/3,2/3");
    expect(mergeShards("1/3,2/3", "3/3")).toBeNull();
    expect(mergeShards(null, "2/3")).toBeNull();
    expect(mergeShards("2/4", "1/4")).toBe("1/4,2/4");
  });
});
