/**
 * Fallback end to end, with real processes, two mock listeners and real HTTP: the fallback
 * checker must fire on a gateway that never falls back and on one that loses fields on the
 * hop, stay quiet on a gateway that falls back correctly (the fixture and the real Portkey
 * 1.15.2+locked from the install cache), and columns without fallback get `not-run`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { GatewayAdapter } from "../gateways/adapter.ts";
import { direct } from "../gateways/adapters/direct.ts";
import { portkey } from "../gateways/adapters/portkey.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import { failureFiguresOf, renderFailureSection } from "../results/failure-section.ts";
import { loadRunView } from "../results/run-view.ts";
import { openStore } from "../results/store.ts";
import { runSweep } from "./run-sweep.ts";
import { fallbackGateway } from "./testing-columns.ts";
import { processesRunning, testSweepOptions } from "./testing-sweep.ts";

const PROBE_IDS = ["oc-failure-fallback-400", "oc-failure-fallback-503"];

const dir = mkdtempSync(join(tmpdir(), "gatecheck-fallback-"));
afterAll(() => (process.env.KEEP ? undefined : rmSync(dir, { recursive: true, force: true })));

/** Portkey on its plain Chat route only: one route keeps the test fast. */
const portkeyChat: GatewayAdapter = {
  ...portkey,
  routes: (spec) => portkey.routes(spec).filter((r) => r.id === "openai-chat->openai-chat"),
};

describe("fallback over real gateways", () => {
  it("catches a gateway that never falls back or loses fields on the hop, and passes good ones", async () => {
    const probes = CORPUS.filter((p) => PROBE_IDS.includes(p.id));
    expect(probes.map((p) => p.id).sort()).toEqual(PROBE_IDS);
    const result = await runSweep(
      testSweepOptions(dir, {
        columns: [
          { adapter: direct, spec: { name: "direct", version: "0" } },
          { adapter: fallbackGateway("never"), spec: { name: "never", version: "1" } },
          { adapter: fallbackGateway("good"), spec: { name: "good", version: "1" } },
          { adapter: fallbackGateway("lossy-hop"), spec: { name: "lossy", version: "1" } },
          { adapter: portkeyChat, spec: { name: "portkey", version: "1.15.2", variant: "locked" } },
        ],
        probes,
      }),
    );
    expect(result.status).toBe("done");
    expect(processesRunning("fallback-gateway.mjs")).toEqual([]);
    const store = openStore(result.dbPath);
    try {
      const cells = store.cells(result.runId);
      const cell = (column: string, probe: string) =>
        cells.find((c) => c.column === column && c.probeId === probe);

      for (const c of cells.filter((c) => c.column === "direct@0"))
        expect([c.probeId, c.verdict, c.reason]).toEqual([
          c.probeId,
          "not-run",
          expect.stringMatching(/^direct: no fallback \(no gateway/),
        ]);

      // Never falls back: a 503 it is configured to move on is the finding; a 400 it is not
      // configured to move on reaches the client truthfully.
      expect(cell("never@1", "oc-failure-fallback-503")).toMatchObject({
        verdict: "dropped",
        cause: "no-fallback",
      });
      expect(cell("never@1", "oc-failure-fallback-503")?.reason).toMatch(
        /^failure\.fallback: no fallback on 503: 1 attempt\(s\) \[503 @\+0ms\]; fallback on 429,500,502,503; client got 503/,
      );
      expect(cell("never@1", "oc-failure-fallback-400")?.verdict).toBe("preserved");
      expect(cell("never@1", "oc-failure-fallback-400")?.reason).toMatch(
        /stayed on the first target \(400 is not a fallback status\)/,
      );

      for (const column of ["good@1", "portkey@1.15.2+locked"]) {
        for (const probe of PROBE_IDS) {
          expect(cell(column, probe), `${column} ${probe}`).toMatchObject({
            verdict: "preserved",
          });
          expect(cell(column, probe)?.reason).toMatch(/fell back on \d{3}, same request/);
        }
      }

      // Moves, but the second target gets the request without temperature and stop.
      const lossy = cell("lossy@1", "oc-failure-fallback-503");
      expect(lossy).toMatchObject({ verdict: "dropped", cause: "fallback-hop-lost" });
      expect(lossy?.reason).toMatch(
        /lost on the hop to the second target: temperature: 0\.3 → absent/,
      );
      expect(lossy?.reason).toMatch(/stop: \["FALLSTOP"\] → absent/);

      // What the judge needs travels beside the traffic, in the exchange's context: neither
      // the gateway nor the backend ever saw it.
      const never = [...store.iterateAttempts(result.runId)].filter((a) => a.column === "never@1");
      expect(never.length).toBeGreaterThan(0);
      for (const { exchange } of never) {
        expect(exchange.context?.fallback?.targets).toHaveLength(2);
        expect(exchange.context?.fallback?.on).toEqual([429, 500, 502, 503]);
        for (const request of [exchange.clientRequest, ...(exchange.forwarded ?? [])]) {
          const names = request?.headers.map(([name]) => name) ?? [];
          expect(names.filter((name) => name.startsWith("x-gatecheck"))).toEqual([]);
        }
      }

      // The matrix's failure section shows, per gateway, which statuses moved.
      const view = loadRunView(store, result.runId);
      const section = renderFailureSection(view, failureFiguresOf(store, view)).join("\n");
      expect(section).toContain("### Fallback");
      expect(section).toMatch(/\| never@1 \| — \| 400, 503 \| 1 \| 0 \|/);
      expect(section).toMatch(/\| good@1 \| 400, 503 \| — \| 0 \| 0 \|/);
      expect(section).toMatch(/\| portkey@1\.15\.2\+locked \| 400, 503 \| — \| 0 \| 0 \|/);
      expect(section).toMatch(/\| direct@0 \| — \| — \| 0 \| 2 \(direct: no fallback/);
      // Not-run cells are counted apart in the summary, never as truthful.
      expect(section).toContain("| direct@0 | 0 (+2 not run) | 0 | 0 |");
    } finally {
      store.close();
    }
  }, 180_000);
});
