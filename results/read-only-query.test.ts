import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formatQueryTable,
  queryJsonChunks,
  queryResultToJson,
  readOnlyQuery,
  runReadOnlyQuery,
} from "./read-only-query.ts";
import { openStore, openStoreReadonly, type ResultsStore } from "./store.ts";
import { writeFixtureRun } from "./testing/fixture-run.ts";

let dir: string;
let path: string;
let reader: ResultsStore;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-query-"));
  path = join(dir, "r.db");
  const writer = openStore(path);
  writeFixtureRun(writer, { runId: "R", startedAt: "2026-11-30T02:10:00.000Z" });
  writer.close();
  reader = openStoreReadonly(path);
});
afterAll(() => {
  reader.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("runReadOnlyQuery", () => {
  it("returns columns and rows of a SELECT", () => {
    const result = runReadOnlyQuery(
      reader.db,
      `SELECT "column", count(*) AS cells FROM cells WHERE verdict = 'dropped' GROUP BY 1 ORDER BY 1`,
    );
    expect(result.columns).toEqual(["column", "cells"]);
    expect(result.rows).toEqual([
      ["litellm@1.74.0", 1],
      ["portkey@1.15.2+locked", 2],
    ]);
    expect(queryResultToJson(result)[1]).toEqual({ column: "portkey@1.15.2+locked", cells: 2 });
  });

  it.each([
    ["DELETE FROM cells", /would write/],
    ["UPDATE runs SET status = 'done'", /would write/],
    ["INSERT INTO runs (id) VALUES ('x')", /would write/],
    ["DROP TABLE cells", /would write/],
    ["PRAGMA user_version = 9", /would write/],
    ["SELECT 1; DELETE FROM cells", /more than one statement/],
    ["SELEC nonsense", /query refused/],
  ])("refuses %s and changes nothing", (sql, message) => {
    expect(() => runReadOnlyQuery(reader.db, sql)).toThrow(message);
    const n = runReadOnlyQuery(reader.db, "SELECT count(*) FROM cells").rows[0]?.[0];
    expect(n).toBe(50);
  });

  it("the read-only connection refuses a write even when the statement check is bypassed", () => {
    expect(() => reader.db.prepare("DELETE FROM cells").run()).toThrow(/readonly/);
  });

  it("keeps duplicate column names apart in rows", () => {
    const result = runReadOnlyQuery(reader.db, "SELECT 1 AS a, 2 AS a");
    expect(result.rows).toEqual([[1, 2]]);
  });
});

describe("formatQueryTable", () => {
  it("aligns columns, shows NULL, cuts long values and counts rows", () => {
    const text = formatQueryTable(
      {
        columns: ["id", "note"],
        rows: [
          [1, null],
          [22, "x".repeat(100)],
        ],
      },
      10,
    );
    expect(text.split("\n")).toEqual([
      "id │ note",
      "───┼───────────",
      "1  │ NULL",
      "22 │ xxxxxxxxx…",
      "(2 rows)",
      "",
    ]);
  });
});

describe("streamed output", () => {
  it("--json in pieces is the text of JSON.stringify on the whole result", () => {
    for (const sql of [
      `SELECT "column", verdict, runs, counts FROM cells ORDER BY 1, 2`,
      "SELECT 1 AS a WHERE 0",
      "SELECT x'00ff' AS bytes, NULL AS empty",
    ]) {
      const whole = `${JSON.stringify(queryResultToJson(runReadOnlyQuery(reader.db, sql)), null, 2)}\n`;
      expect([...queryJsonChunks(readOnlyQuery(reader.db, sql))].join("")).toBe(whole);
    }
  });

  it("a table past 1,000 rows keeps the first rows' widths and cuts later values to them", () => {
    const sql = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1002)
      SELECT CASE WHEN x > 1000 THEN 'wider than the rest' ELSE 'short' END AS v FROM c`;
    const lines = formatQueryTable(readOnlyQuery(reader.db, sql)).split("\n");
    expect(lines[0]).toBe("v");
    expect(lines.at(-3)).toBe("wide…");
    expect(lines.at(-2)).toBe("(1002 rows)");
  });
});
