/**
 * Side findings end to end (issue 20 §5), with real HTTP and a real database: a sweep of a
 * gateway that cuts the tool-call arguments of the replies it passes on (the lossy test gateway
 * with --cut-tool-arguments), over a probe that asks about the reply's finish reason. The probe's
 * own subject arrives as sent (its cell is clean); the arguments, which no probe of the run asks
 * about, arrive changed (`tool_calls[].arguments` mangled) and no longer JSON (the one-sided
 * invariant `invariant.tool-arguments`). Both must reach the matrix, the JSON summary and JUnit
 * as side findings, and the attempt the matrix names must hold the bytes that show them. The
 * defect is the gateway's own: `direct` over the same probe, and the control column over the
 * probes whose upstream sends a broken reply itself, has none (control-clean.test.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { direct } from "../gateways/adapters/direct.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import { exchangeOfWire } from "../probes/exchange.ts";
import { judgeExchange } from "../probes/lens/judge-exchange.ts";
import { renderJunit } from "../results/junit-report.ts";
import { loadRunView } from "../results/run-view.ts";
import { openStore } from "../results/store.ts";
import { exportExchange } from "./export-exchange.ts";
import { runSweep } from "./run-sweep.ts";
import { lossyGateway } from "./testing-columns.ts";
import { processesRunning, testSweepOptions } from "./testing-sweep.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-side-sweep-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PROBE = "oc-reply-finish-tool-calls";
const CUTTER = "cutter@1.0.0";
const SIDE = [
  "invariant.tool-arguments mangled invalid-arguments",
  "tool_calls[].arguments mangled -",
];

describe("a side finding of a real sweep", () => {
  it("reaches the matrix, summary.json and JUnit, and its example attempt holds the bytes", async () => {
    const probes = CORPUS.filter((p) => p.id === PROBE);
    expect(probes).toHaveLength(1);
    const result = await runSweep(
      testSweepOptions(dir, {
        columns: [
          { adapter: direct, spec: { name: "direct", version: "0" } },
          {
            adapter: lossyGateway({ name: "cutter", cutToolArguments: true }),
            spec: { name: "cutter", version: "1.0.0" },
          },
        ],
        probes,
      }),
    );
    expect(result.status).toBe("done");
    expect(processesRunning("lossy-gateway.mjs")).toEqual([]);
    const store = openStore(result.dbPath);
    try {
      const view = loadRunView(store, result.runId);
      // The probe's own field arrived as the upstream sent it, through both: clean.
      const cells = view.cells.filter((c) => c.probeId === PROBE);
      expect(cells.map((c) => `${c.column} ${c.verdict}`).sort()).toEqual([
        `${CUTTER} preserved`,
        "direct@0 preserved",
      ]);
      // direct passes the upstream's arguments on whole: nothing found there.
      expect(view.findings.filter((f) => f.column === "direct@0")).toEqual([]);
      const side = view.findings.filter((f) => !f.own && f.column === CUTTER);
      expect(side.map((f) => `${f.subject} ${f.verdict} ${f.cause ?? "-"}`)).toEqual(SIDE);
      const found = side.find((f) => f.subject === "invariant.tool-arguments");
      const attemptId = found?.attempt?.id as number;
      expect(attemptId).toEqual(expect.any(Number));

      // The matrix's headline names it as found on another probe, with the attempt to read.
      const matrix = readFileSync(result.matrixPath, "utf8");
      const row = matrix
        .split("\n")
        .find((l) => l.includes("mangled `invariant.tool-arguments` (invalid-arguments)"));
      expect(row).toMatch(/\| 1 \| 1 \| openai-chat->openai-chat · ns \| #\d+: /);
      expect(row).toContain(`#${attemptId}:`);

      // summary.json: beside the column's counts (which stay clean), not in them.
      const summary = JSON.parse(readFileSync(result.summaryPath, "utf8"));
      const column = summary.columns.find((c: { column: string }) => c.column === CUTTER);
      expect(column).toMatchObject({ silent: 0, preservationRate: 1 });
      expect(column.sideFindings.cells).toBe(1);
      expect(column.sideFindings.findings).toContainEqual(
        expect.objectContaining({
          subject: "invariant.tool-arguments",
          verdict: "mangled",
          cause: "invalid-arguments",
          cells: 1,
          example: expect.objectContaining({ probeId: PROBE, attemptId }),
        }),
      );
      const control = summary.columns.find((c: { column: string }) => c.column === "direct@0");
      expect(control.sideFindings).toMatchObject({ cells: 0, findings: [] });

      // JUnit fails on each, one case per side finding of the column (the column's agent loops,
      // whose tool calls the cut arguments break, fail beside them).
      const junit = renderJunit(view);
      const failing = [...junit.xml.matchAll(/<testcase [^>]*name="([^"]*)"[^>]*>\s*<failure/g)];
      expect(failing.map((m) => m[1]).filter((name) => name?.startsWith("side finding:"))).toEqual([
        "side finding: mangled invariant.tool-arguments (invalid-arguments)",
        "side finding: mangled tool_calls[].arguments",
      ]);

      // The attempt the matrix names, exported and judged again as `check` does, shows it.
      const exported = exportExchange(result.dbPath, { attemptId });
      const again = judgeExchange(exchangeOfWire(exported));
      expect(again.find((v) => v.subject === "invariant.tool-arguments")).toMatchObject({
        verdict: "mangled",
        cause: "invalid-arguments",
      });
    } finally {
      store.close();
    }
  });
});
