/**
 * The route preflight, end to end with real processes: a gateway whose second route the rig
 * configured wrongly (its base URL ends in `/v1`, so every request goes to
 * `/v1/v1/chat/completions`, as Portkey's DeepSeek custom host did) is swept; that route's
 * cells are never judged (not-run with the exact reason, listed in the matrix's scope), its
 * path probes still find the wrong path, and the well configured route is swept as before.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { GatewayRoute } from "../gateways/adapter.ts";
import { checkRoute } from "../gateways/doctor.ts";
import { startGateway } from "../gateways/start.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import { openStore } from "../results/store.ts";
import { startColumnMocks } from "./persona-mocks.ts";
import { rescoreRun } from "./rescore.ts";
import { doctorMockOf, RoutePreflights } from "./route-preflight.ts";
import { BACKEND_MODEL, ROUTE_API_KEY, runSweep } from "./run-sweep.ts";
import { MISROUTED_ROUTE, misroutedGateway } from "./testing-columns.ts";
import { processesRunning, testSweepOptions } from "./testing-sweep.ts";

const dirs: string[] = [];
function workdir(): string {
  const dir = mkdtempSync(join(tmpdir(), "gatecheck-preflight-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const PROBE_IDS = ["oc-temperature", "oc-seed", "oc-path-generate", "oc-path-stream"];
const GOOD_ROUTE = "openai-chat->openai-chat";
const WRONG_PATH =
  /^route preflight failed \((non-stream|stream)\): forwarded to POST \/v1\/v1\/chat\/completions, which the openai openai-chat backend does not serve \(it serves POST \/v1\/chat\/completions\); see the base URL or custom host the adapter gives the gateway$/;

describe("route preflight in a sweep", () => {
  it("never judges the cells of a route the rig configured wrongly; its path probes still find the wrong path", async () => {
    const dir = workdir();
    const result = await runSweep(
      testSweepOptions(dir, {
        columns: [{ adapter: misroutedGateway(), spec: { name: "misrouted", version: "1.0.0" } }],
        probes: CORPUS.filter((p) => PROBE_IDS.includes(p.id)),
        modes: ["non-stream", "stream"],
      }),
    );
    expect(result.status).toBe("done");
    expect(processesRunning("lossy-gateway.mjs")).toEqual([]);
    const store = openStore(result.dbPath);
    try {
      const cells = store.cells(result.runId);
      const on = (route: string) => cells.filter((c) => c.routeId === route);
      const cell = (route: string, probe: string, mode: string) =>
        cells.find((c) => c.routeId === route && c.probeId === probe && c.mode === mode);
      // The misrouted route: every cell but the path probes' is not run, with the exact reason.
      const skipped = on(MISROUTED_ROUTE).filter((c) => !c.probeId.includes("-path-"));
      expect(skipped.map((c) => `${c.probeId} ${c.mode}`).sort()).toEqual([
        "oc-seed non-stream",
        "oc-seed stream",
        "oc-temperature non-stream",
        "oc-temperature stream",
      ]);
      for (const c of skipped) {
        expect(c).toMatchObject({ verdict: "not-run", runs: 0 });
        expect(c.reason).toMatch(WRONG_PATH);
        expect(c.reason).toContain(`(${c.mode})`);
      }
      const attempts = store.db.prepare(
        `SELECT probe_id AS probe FROM attempts WHERE run_id = ? AND route_id = ? AND probe_id NOT LIKE '%-path-%'`,
      );
      expect(attempts.all(result.runId, MISROUTED_ROUTE)).toEqual([]);
      expect(attempts.all(result.runId, GOOD_ROUTE)).toHaveLength(4);
      // Its path probes ran, and found the wrong path, saying the route failed its preflight;
      // nothing else is read off the route: their verdict lists hold the path alone.
      for (const [probe, mode] of [
        ["oc-path-generate", "non-stream"],
        ["oc-path-stream", "stream"],
      ] as const) {
        const path = cell(MISROUTED_ROUTE, probe, mode);
        expect(path?.verdict, path?.reason).toBe("mangled");
        expect(path?.reason).toContain('→ "/v1/v1/chat/completions"');
        expect(path?.reason).toContain(`(route preflight failed (${mode}): forwarded to POST`);
        if (!path) throw new Error("no path cell");
        const [attempt] = store.attemptsOfCell(result.runId, path);
        expect(attempt?.verdicts.length).toBeGreaterThan(0);
        expect(new Set(attempt?.verdicts.map((v) => v.subject))).toEqual(new Set(["path"]));
        expect(attempt?.exchange.context?.routePreflight).toMatch(WRONG_PATH);
      }
      // The good route's path cell is judged among every other field, as always.
      const good = cell(GOOD_ROUTE, "oc-path-generate", "non-stream");
      if (!good) throw new Error("no good path cell");
      const [goodAttempt] = store.attemptsOfCell(result.runId, good);
      expect(new Set(goodAttempt?.verdicts.map((v) => v.subject)).size).toBeGreaterThan(1);
      // Its agent loops are stored not run with the reason; the good route's loops ran.
      const loops = store.db.prepare(
        `SELECT status, reason FROM loops WHERE run_id = ? AND route_id = ?`,
      );
      const misroutedLoops = loops.all(result.runId, MISROUTED_ROUTE) as {
        status: string;
        reason: string;
      }[];
      expect(misroutedLoops.length).toBeGreaterThan(0);
      for (const loop of misroutedLoops) {
        expect(loop.status).toBe("not-run");
        expect(loop.reason).toMatch(WRONG_PATH);
      }
      const goodLoops = loops.all(result.runId, GOOD_ROUTE) as { status: string }[];
      expect(goodLoops.filter((l) => l.status !== "not-run").length).toBeGreaterThan(0);
      // A rescore of the stored bytes judges the same (the reason rides in the exchange).
      const rescored = rescoreRun(store, result.runId);
      expect(rescored.changed).toBe(0);
      // The well configured route is swept as before: the lossy gateway's rewrite is found.
      expect(cell(GOOD_ROUTE, "oc-temperature", "non-stream")?.verdict).toBe("mangled");
      expect(cell(GOOD_ROUTE, "oc-seed", "stream")?.verdict).toBe("preserved");
      expect(cell(GOOD_ROUTE, "oc-path-generate", "non-stream")?.verdict).toBe("preserved");
      expect(on(GOOD_ROUTE).filter((c) => c.verdict === "not-run")).toEqual([]);
    } finally {
      store.close();
    }
    // The matrix's scope names the route, its modes and the whole reason, before any number.
    const matrix = readFileSync(result.matrixPath, "utf8");
    const scope = matrix.slice(0, matrix.indexOf("\n## ", matrix.indexOf("## Scope") + 1));
    expect(scope).toContain(
      `- **Routes that failed their preflight** (not swept: their cells \`not-run\`, never findings; docs/sweep.md): misrouted@1.0.0 ${MISROUTED_ROUTE} (non-stream, stream; 4 cells): forwarded to POST /v1/v1/chat/completions, which the openai openai-chat backend does not serve (it serves POST /v1/chat/completions); see the base URL or custom host the adapter gives the gateway.`,
    );
  }, 120_000);
});

describe("the route check on the sweep's own mock listeners", () => {
  it("names a persona route's own listener in its headers, as the sweep's attempts do", async () => {
    const dir = workdir();
    const adapter = misroutedGateway();
    const spec = { name: "misrouted", version: "1.0.0" };
    const [good] = adapter.routes(spec);
    if (!good) throw new Error("no route");
    // DeepSeek's Chat API configured by base URL, through the gateway's per-request header.
    const deepseek: GatewayRoute = {
      ...good,
      id: `${GOOD_ROUTE}@deepseek`,
      persona: "deepseek",
      native: false,
      headers: (ctx) => ({
        authorization: `Bearer ${ctx.apiKey}`,
        "x-lossy-upstream-base": ctx.mockUrl("openai-chat", "deepseek"),
      }),
    };
    const mocks = await startColumnMocks("misrouted", dir, [deepseek]);
    try {
      const started = await startGateway(adapter, spec, {
        workdir: dir,
        mockUrl: (_backend, persona) => mocks.url(persona),
      });
      if (started.status !== "running") throw new Error(started.reason);
      try {
        const check = await checkRoute(started.gateway, deepseek, doctorMockOf(mocks), false, {
          apiKey: ROUTE_API_KEY,
          model: BACKEND_MODEL,
        });
        expect(check, check.detail).toMatchObject({
          worked: true,
          reached: ["/v1/chat/completions"],
        });
        expect(check.preflight).toBeUndefined();
        const [main, persona] = mocks.listeners();
        expect(persona?.records().filter((r) => r.nonce)).toHaveLength(1);
        expect(main?.records()).toEqual([]);
      } finally {
        await started.gateway.stop();
      }
    } finally {
      await mocks.close();
    }
  });
});

describe("RoutePreflights", () => {
  const check = (mode: "non-stream" | "stream", unservedPath: boolean) => ({
    route: "r",
    mode,
    expected: "works" as const,
    reached: [],
    worked: false,
    asDocumented: false,
    detail: "",
    preflight: { reason: "why", unservedPath },
  });

  it("keeps a route's path probes only when its plain request reached a path the backend does not serve", () => {
    const unserved = new RoutePreflights([check("stream", true)]);
    expect(unserved.notRunReason({ axis: "path" }, "r", "stream")).toBeUndefined();
    expect(unserved.notRunReason({ axis: "request" }, "r", "stream")).toBe(
      "route preflight failed (stream): why",
    );
    expect(unserved.notRunReason({ axis: "request" }, "r", "non-stream")).toBeUndefined();
    expect(unserved.routeNotRunReason("r")).toBe("route preflight failed (stream): why");
    const unreached = new RoutePreflights([check("non-stream", false)]);
    expect(unreached.notRunReason({ axis: "path" }, "r", "non-stream")).toBe(
      "route preflight failed (non-stream): why",
    );
    expect(new RoutePreflights([]).routeNotRunReason("r")).toBeUndefined();
  });
});
