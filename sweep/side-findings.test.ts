/**
 * Side findings end to end (issue 20 §5), with real HTTP and a real database: a sweep of the
 * `direct` column over a probe that stages an upstream reply whose tool-call arguments are
 * not JSON. The probe asks about the arguments, which arrive as sent (its cell is clean); the
 * one-sided invariant `invariant.tool-arguments` finds them broken on the same exchange, a
 * subject no probe of the run asks about. It must reach the matrix, the JSON summary and
 * JUnit as a side finding, and the attempt the matrix names must hold the bytes that show it.
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
import { testSweepOptions } from "./testing-sweep.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-side-sweep-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PROBE = "oc-reply-tool-call-malformed-arguments";

describe("a side finding of a real sweep", () => {
  it("reaches the matrix, summary.json and JUnit, and its example attempt holds the bytes", async () => {
    const probes = CORPUS.filter((p) => p.id === PROBE);
    expect(probes).toHaveLength(1);
    const result = await runSweep(
      testSweepOptions(dir, {
        columns: [{ adapter: direct, spec: { name: "direct", version: "0" } }],
        probes,
      }),
    );
    expect(result.status).toBe("done");
    const store = openStore(result.dbPath);
    try {
      const view = loadRunView(store, result.runId);
      const cell = view.cells.find((c) => c.probeId === PROBE);
      // The probe's own field arrived as the upstream sent it: clean.
      expect(cell?.verdict).toBe("preserved");
      const side = view.findings.filter((f) => !f.own);
      expect(side.map((f) => `${f.subject} ${f.verdict} ${f.cause}`)).toEqual([
        "invariant.tool-arguments mangled invalid-arguments",
      ]);
      const attemptId = side[0]?.attempt?.id as number;
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
      const column = summary.columns.find((c: { column: string }) => c.column === "direct@0");
      expect(column).toMatchObject({ silent: 0, preservationRate: 1 });
      expect(column.sideFindings).toMatchObject({
        cells: 1,
        findings: [
          {
            subject: "invariant.tool-arguments",
            verdict: "mangled",
            cause: "invalid-arguments",
            cells: 1,
            example: { probeId: PROBE, attemptId },
          },
        ],
      });

      // JUnit fails on it, one case.
      const junit = renderJunit(view);
      expect(junit.failures).toBe(1);
      expect(junit.xml).toContain(
        'name="side finding: mangled invariant.tool-arguments (invalid-arguments)"',
      );

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
