/**
 * `--attach NAME=URL`: a gateway the user runs (here a stand-in playing AxonHub, which no
 * registry can build) is swept where it listens, its column's mock on the port the user
 * pointed it at, and the sweep neither launches nor stops it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { freePort, waitForHttp } from "../gateways/ports.ts";
import { pidAlive, spawnGroup } from "../gateways/process-group.ts";
import { findAdapter } from "../gateways/registry.ts";
import { FAKE_GATEWAY_MJS } from "../gateways/testing/fake-gateway.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import { openStore } from "../results/store.ts";
import { runSweep } from "./run-sweep.ts";
import { SelectionError, withAttached } from "./select.ts";
import { testSweepOptions } from "./testing-sweep.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-attach-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("sweeps a gateway the user runs, on the mock port it was pointed at, and leaves it running", async () => {
  const [mockPort, gatewayPort] = [await freePort(), await freePort()];
  const standIn = spawnGroup({
    command: process.execPath,
    args: [FAKE_GATEWAY_MJS, `--port=${gatewayPort}`, `--upstream=http://127.0.0.1:${mockPort}`],
    cwd: dir,
    env: { PATH: process.env.PATH ?? "" },
    logPath: join(dir, "stand-in.log"),
  });
  try {
    const up = await waitForHttp({ url: `http://127.0.0.1:${gatewayPort}/`, deadlineMs: 10_000 });
    expect(up.ready).toBe(true);
    const columns = withAttached(
      [],
      `axonhub=http://127.0.0.1:${gatewayPort}`,
      findAdapter,
      mockPort,
    );
    expect(columns).toMatchObject([{ spec: { name: "axonhub" }, mockPort }]);
    const result = await runSweep(
      testSweepOptions(dir, {
        columns,
        probes: CORPUS.filter((p) => p.id === "oc-temperature"),
      }),
    );
    const store = openStore(result.dbPath);
    try {
      expect(store.gatewayRuns(result.runId)).toMatchObject([
        { column: "axonhub@attached", status: "ok" },
      ]);
      const cell = store
        .cells(result.runId)
        .find((c) => c.routeId === "openai-chat->openai-chat" && c.probeId === "oc-temperature");
      expect(cell).toMatchObject({ verdict: "preserved" });
    } finally {
      store.close();
    }
    expect(pidAlive(standIn.pid)).toBe(true);
  } finally {
    await standIn.stop(500);
  }
}, 120_000);

it("refuses an --attach item that is not NAME=URL, or names no gateway", () => {
  expect(() => withAttached([], "axonhub", findAdapter)).toThrow(SelectionError);
  expect(() => withAttached([], "nope=http://127.0.0.1:1", findAdapter)).toThrow(
    /unknown gateway "nope"/,
  );
  const [first, second] = withAttached(
    [],
    "axonhub=http://127.0.0.1:1,bifrost=http://127.0.0.1:2",
    findAdapter,
    9990,
  );
  expect([first?.mockPort, second?.mockPort]).toEqual([9990, 9991]);
});
