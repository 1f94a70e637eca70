import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type ResultsStore } from "../store.ts";
import { FIXTURE_GATEWAYS, FIXTURE_OVERRIDES, writeFixtureRun } from "../testing/fixture-run.ts";
import { loadReportInputs } from "./report-inputs.ts";
import { buildReportModel } from "./report-model.ts";

const GATEWAYS = [
  ...FIXTURE_GATEWAYS,
  { gateway: "portkey", version: "1.15.2", column: "portkey@1.15.2", status: "ok" as const },
];
const A = "2026-12-01T02-10-00Z-aaaa";
const B = "2026-12-02T02-10-00Z-bbbb";
const PLAIN_STRICT = "portkey@1.15.2|oc-tools-strict|openai-chat->openai-chat|stream";

let dir: string;
let store: ResultsStore;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-inputs-"));
  store = openStore(join(dir, "r.db"));
  // In A the plain column drops strict on one cell; in B it is fixed. The +locked column,
  // whose same cell is preserved in both runs, must not borrow the plain column's history.
  const lossy = {
    ...FIXTURE_OVERRIDES,
    [PLAIN_STRICT]: { verdict: "dropped" as const, reason: "strict → absent" },
  };
  writeFixtureRun(store, {
    runId: A,
    startedAt: "2026-12-01T02:10:00.000Z",
    gateways: GATEWAYS,
    overrides: lossy,
  });
  writeFixtureRun(store, { runId: B, startedAt: "2026-12-02T02:10:00.000Z", gateways: GATEWAYS });
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("history of a cell", () => {
  it("is the history of its own column, never of another column of the same gateway", () => {
    const model = buildReportModel(loadReportInputs(store, B));
    const strict = (column: string) =>
      model.cells.find(
        (c) =>
          c.column === column &&
          c.probeId === "oc-tools-strict" &&
          c.routeId === "openai-chat->openai-chat" &&
          c.mode === "stream",
      );
    expect(strict("portkey@1.15.2")?.history.map((h) => h.verdict)).toEqual(["dropped"]);
    expect(strict("portkey@1.15.2+locked")?.history.map((h) => h.verdict)).toEqual(["preserved"]);
    // The diff against A sees the fix in the plain column and nothing in the locked one.
    expect(model.diff?.fixed.map((c) => c.after?.column)).toEqual(["portkey@1.15.2"]);
    expect(model.diff?.compared).toBe(model.cells.length);
  });
});
