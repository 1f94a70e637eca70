/**
 * The sweep against a real gateway installed from npm at its pinned version
 * (claude-code-router 2.0.0): its publicly reported losses on the Anthropic ingress must
 * show up as silent defects, what it carries as preserved, and no control leg may be
 * claimed over its OpenAI Chat ingress, which does not work offline. Installs are cached per name@version.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import type { GatewayAdapter } from "../gateways/adapter.ts";
import { claudeCodeRouter } from "../gateways/adapters/claude-code-router.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import { openStore } from "../results/store.ts";
import { runSweep } from "./run-sweep.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-real-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEEP = new Set(["anthropic-messages->openai-chat", "openai-chat->openai-chat"]);
const ccr: GatewayAdapter = {
  ...claudeCodeRouter,
  routes: (spec) => claudeCodeRouter.routes(spec).filter((r) => KEEP.has(r.id)),
};

it(
  "finds claude-code-router's dropped stop_sequences and disable_parallel_tool_use",
  async () => {
    const ids = ["am-stop-sequences", "am-disable-parallel-tool-use", "am-temperature"];
    const result = await runSweep({
      columns: [{ adapter: ccr, spec: { name: "claude-code-router", version: "2.0.0" } }],
      probes: CORPUS.filter((p) => ids.includes(p.id)),
      modes: ["non-stream"],
      repeats: 2,
      minutes: 8,
      concurrency: 2,
      dbPath: join(dir, "gc.db"),
      outDir: dir,
      attemptTimeoutMs: 20_000,
      args: {},
    });
    const store = openStore(result.dbPath);
    try {
      const [gatewayRun] = store.gatewayRuns(result.runId);
      expect(gatewayRun, JSON.stringify(result.columns)).toMatchObject({
        status: "ok",
        version: "2.0.0",
      });
      const cell = (probe: string) =>
        store
          .cells(result.runId)
          .find((c) => c.probeId === probe && c.routeId === "anthropic-messages->openai-chat");
      expect(cell("am-stop-sequences")).toMatchObject({
        verdict: "dropped",
        runs: 2,
        stable: true,
      });
      // CCR's own OpenAI Chat ingress fails offline (see its adapter), so no control leg runs.
      expect(cell("am-stop-sequences")?.controlVerdict).toBeUndefined();
      expect(cell("am-disable-parallel-tool-use")).toMatchObject({
        verdict: "dropped",
        stable: true,
      });
      expect(cell("am-temperature")).toMatchObject({ verdict: "preserved" });
      // The two drops are registered positive controls for this version and backend.
      expect(cell("am-stop-sequences")?.knownIssue).toMatch(/musistudio\/llms/);
      expect(cell("am-disable-parallel-tool-use")?.knownIssue).toMatch(/musistudio\/llms/);
      expect(cell("am-temperature")?.knownIssue).toBeUndefined();
    } finally {
      store.close();
    }
  },
  10 * 60_000,
);
