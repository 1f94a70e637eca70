/**
 * The failure axis end to end, with real processes and real HTTP: `direct` must be truthful
 * on every failure probe, and the deliberately bad gateways of `fixtures/failing-gateway.mjs`
 * (one relabels errors as 200, one retries everything) must be caught by each checker.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { direct } from "../gateways/adapters/direct.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import { failureFiguresOf, renderFailureSection } from "../results/failure-section.ts";
import { loadRunView } from "../results/run-view.ts";
import { openStore } from "../results/store.ts";
import { runSweep } from "./run-sweep.ts";
import { failingGateway } from "./testing-columns.ts";
import { processesRunning, testSweepOptions } from "./testing-sweep.ts";

const PROBE_IDS = [
  "oc-failure-status-503",
  "oc-failure-error-text-object",
  "oc-failure-gzip-error",
  "oc-failure-retry-400",
  "oc-failure-retry-503-always",
  "oc-failure-stream-reset",
  "oc-retry-429-then-ok",
];

const dir = mkdtempSync(join(tmpdir(), "gatecheck-failure-"));
afterAll(() => (process.env.KEEP ? undefined : rmSync(dir, { recursive: true, force: true })));

describe("the failure axis over real gateways", () => {
  it("keeps direct truthful and catches relabelling and retrying gateways", async () => {
    const probes = CORPUS.filter((p) => PROBE_IDS.includes(p.id));
    expect(probes.map((p) => p.id).sort()).toEqual([...PROBE_IDS].sort());
    const result = await runSweep(
      testSweepOptions(dir, {
        columns: [
          { adapter: direct, spec: { name: "direct", version: "0" } },
          { adapter: failingGateway("relabel"), spec: { name: "relabel", version: "1" } },
          { adapter: failingGateway("retry"), spec: { name: "retry", version: "1" } },
        ],
        probes,
        modes: ["non-stream", "stream"],
      }),
    );
    expect(result.status).toBe("done");
    expect(processesRunning("failing-gateway.mjs")).toEqual([]);
    const store = openStore(result.dbPath);
    try {
      const cells = store.cells(result.runId);
      const cell = (column: string, probe: string, mode = "non-stream") =>
        cells.find((c) => c.column === column && c.probeId === probe && c.mode === mode);
      const direct0 = cells.filter((c) => c.column === "direct@0");
      expect(direct0.length).toBeGreaterThanOrEqual(PROBE_IDS.length);
      for (const c of direct0)
        expect([c.probeId, c.mode, c.verdict, c.reason]).toEqual([
          c.probeId,
          c.mode,
          "preserved",
          c.reason,
        ]);

      expect(cell("relabel@1", "oc-failure-status-503")).toMatchObject({ verdict: "mangled" });
      expect(cell("relabel@1", "oc-failure-status-503")?.reason).toContain("503 → 200");
      expect(cell("relabel@1", "oc-failure-gzip-error")?.reason).toMatch(/gzip bytes/);
      expect(cell("relabel@1", "oc-failure-stream-reset", "stream")).toMatchObject({
        verdict: "mangled",
      });
      expect(cell("relabel@1", "oc-failure-stream-reset", "stream")?.reason).toMatch(/clean end/);

      expect(cell("retry@1", "oc-failure-retry-400")).toMatchObject({ verdict: "mangled" });
      expect(cell("retry@1", "oc-failure-retry-400")?.reason).toMatch(
        /^failure\.retries: 400 retried: 15 attempt/,
      );
      expect(cell("retry@1", "oc-failure-retry-503-always")?.reason).toMatch(
        /more than 10 attempts/,
      );
      const honoured = cell("retry@1", "oc-retry-429-then-ok");
      expect(honoured?.verdict).toBe("preserved");
      expect(honoured?.reason).toMatch(/Retry-After 1s not honoured \(next attempt after \d+ ms\)/);
      expect(cell("retry@1", "oc-failure-status-503")?.verdict).toBe("preserved");

      // The matrix's failure section shows the measured figures from the stored attempts.
      const view = loadRunView(store, result.runId);
      const section = renderFailureSection(view, failureFiguresOf(store, view)).join("\n");
      expect(section).toMatch(/\| retry@1 \| oc-failure-retry-400 \| non-stream \| [^|]+ \| 15 \|/);
      expect(section).toMatch(/\| direct@0 \| oc-failure-retry-400 \| non-stream \| [^|]+ \| 1 \|/);
    } finally {
      store.close();
    }
  }, 120_000);

  it("measures a gateway that never gives up: the client times out, the attempts are counted", async () => {
    const result = await runSweep(
      testSweepOptions(dir, {
        columns: [{ adapter: failingGateway("forever"), spec: { name: "forever", version: "1" } }],
        probes: CORPUS.filter((p) => p.id === "oc-failure-retry-503-always"),
        minutes: 2,
        concurrency: 1,
        dbPath: join(dir, "forever.db"),
        attemptTimeoutMs: 1500,
      }),
    );
    expect(result.status).toBe("done");
    expect(processesRunning("failing-gateway.mjs")).toEqual([]);
    const store = openStore(result.dbPath);
    try {
      const [cell] = store.cells(result.runId);
      // No response ever came, yet the clock is judged: a gateway that never gives up is a finding.
      expect(cell?.verdict).toBe("mangled");
      expect(cell?.cause).toMatch(/retry-storm|deadline-exceeded/);
      const view = loadRunView(store, result.runId);
      const [figures] = failureFiguresOf(store, view);
      expect(figures?.attempts).toBeGreaterThan(10);
      expect(figures?.clientStatus).toBe(0);
      expect(figures?.gapsMs.every((gap) => gap >= 40)).toBe(true);
    } finally {
      store.close();
    }
  }, 60_000);
});
