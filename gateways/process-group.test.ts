import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { groupAlive, pidAlive, trackedGroups } from "./process-group.ts";
import { startGateway } from "./start.ts";
import { fakeGatewayAdapter, pidFromLog } from "./testing/fake-gateway.ts";
import { startTinyMock, type TinyMock } from "./testing/tiny-mock.ts";

let mock: TinyMock;
let root: string;
const seenPids: number[] = [];

beforeAll(async () => {
  mock = await startTinyMock();
  root = mkdtempSync(join(tmpdir(), "gatecheck-pg-"));
});
afterAll(async () => {
  await mock.close();
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => {
  // No test may leave a process behind: every pid we saw is gone, no group is tracked.
  for (const pid of seenPids) expect(pidAlive(pid), `pid ${pid} survived`).toBe(false);
  expect(trackedGroups()).toEqual([]);
});

function start(flags: string[], name: string, readyTimeoutMs?: number) {
  const adapter = fakeGatewayAdapter(flags, readyTimeoutMs);
  return startGateway(
    adapter,
    { name: "fake", version: "1.0.0" },
    {
      workdir: join(root, name),
      mockUrl: () => mock.url,
    },
  );
}

describe("process groups", () => {
  it("launches, forwards a request, and stops the whole group with SIGTERM", async () => {
    const started = await start(["--fork-child"], "plain");
    if (started.status !== "running") throw new Error(started.reason);
    const { gateway } = started;
    const child = await pidFromLog(gateway.logPath ?? "", /child pid (\d+)/);
    seenPids.push(gateway.pid ?? -1, child);
    const res = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "PG-1" }] }),
    });
    expect(res.status).toBe(200);
    expect(mock.records.some((r) => r.body.includes("PG-1"))).toBe(true);
    const stop = await gateway.stop();
    expect(stop).toMatchObject({ gone: true, how: "sigterm" });
    expect(groupAlive(gateway.pid ?? -1)).toBe(false);
    expect(pidAlive(child)).toBe(false);
  });

  it("runs with HOME in the workdir and no credential variables", async () => {
    process.env.OPENAI_API_KEY = "sk-should-never-reach-a-gateway-000";
    try {
      const started = await start([], "env");
      if (started.status !== "running") throw new Error(started.reason);
      seenPids.push(started.gateway.pid ?? -1);
      await pidFromLog(started.gateway.logPath ?? "", /fake gateway pid (\d+)/);
      const line = started.gateway.logTail(5).join("\n");
      expect(line).toContain(`HOME=${join(root, "env")}`);
      expect(line).toContain("OPENAI_API_KEY=unset");
      await started.gateway.stop();
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
  });

  it("escalates to SIGKILL when the gateway ignores SIGTERM", async () => {
    const started = await start(["--ignore-sigterm"], "stubborn");
    if (started.status !== "running") throw new Error(started.reason);
    seenPids.push(started.gateway.pid ?? -1);
    const stop = await started.gateway.stop();
    expect(stop).toMatchObject({ gone: true, how: "sigkill" });
  }, 20_000);

  it("reports a gateway that exits before ready as not-run with exit code and log tail", async () => {
    const started = await start(["--exit-code=3"], "crash");
    expect(started.status).toBe("not-run");
    if (started.status !== "not-run") return;
    expect(started.reason).toMatch(/exited before ready \(code 3\)/);
    expect(started.exitCode).toBe(3);
    expect(started.logTail?.join("\n")).toContain("failing on purpose");
    expect(started.logPath).toBe(join(root, "crash", "gateway.log"));
  });

  it("gives up at the readiness deadline and leaves nothing behind", async () => {
    const started = await start(["--start-delay=20000", "--fork-child"], "slow", 800);
    expect(started.status).toBe("not-run");
    if (started.status !== "not-run") return;
    expect(started.reason).toMatch(/no HTTP answer .* within 800 ms/);
    const leader = await pidFromLog(join(root, "slow", "gateway.log"), /fake gateway pid (\d+)/);
    const child = await pidFromLog(join(root, "slow", "gateway.log"), /child pid (\d+)/);
    seenPids.push(leader, child);
  });

  it("reports a gateway SIGKILLed mid-request and leaves no process", async () => {
    const started = await start(["--fork-child"], "killed");
    if (started.status !== "running") throw new Error(started.reason);
    const { gateway } = started;
    const child = await pidFromLog(gateway.logPath ?? "", /child pid (\d+)/);
    seenPids.push(gateway.pid ?? -1, child);
    mock.hold("HOLD-ME");
    const pending = fetch(`${gateway.baseUrl}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "HOLD-ME" }] }),
    }).then(
      (r) => `status ${r.status}`,
      (e: Error) => `transport error: ${e.message}`,
    );
    while (!mock.records.some((r) => r.body.includes("HOLD-ME")))
      await new Promise((r) => setTimeout(r, 20));
    process.kill(-(gateway.pid ?? 0), "SIGKILL");
    expect(await pending).toMatch(/transport error/);
    mock.hold(undefined);
    // The adapter reports the death without being asked to stop.
    while (!gateway.exited()) await new Promise((r) => setTimeout(r, 20));
    expect(gateway.exited()).toEqual({ signal: "SIGKILL" });
    const stop = await gateway.stop();
    expect(stop.how).toBe("already-exited");
    expect(stop.gone).toBe(true);
    expect(gateway.exited()).toEqual({ signal: "SIGKILL" });
  });

  it("tells a gateway that died before its exit event came from one alive", async () => {
    const started = await start([], "dying");
    if (started.status !== "running") throw new Error(started.reason);
    const { gateway } = started;
    const pid = gateway.pid ?? -1;
    seenPids.push(pid);
    try {
      if (!gateway.dying || !gateway.whenExited)
        throw new Error("a launched gateway has no dying()");
      // Alive; only /proc (Linux) can tell, elsewhere it may be dying.
      expect(gateway.dying()).toBe(process.platform !== "linux");
      process.kill(pid, "SIGKILL");
      // This thread blocks, so Node reaps nothing and delivers no exit event: the state a cut
      // connection can be seen in. Bounded, for a kernel slow to deliver the signal.
      const blocked = new Int32Array(new SharedArrayBuffer(4));
      const until = Date.now() + 10_000;
      while (!gateway.dying() && Date.now() < until) Atomics.wait(blocked, 0, 0, 10);
      expect(gateway.dying()).toBe(true);
      expect(gateway.exited()).toBeUndefined();
      expect(await gateway.whenExited).toEqual({ signal: "SIGKILL" });
      expect(gateway.exited()).toEqual({ signal: "SIGKILL" });
      expect(gateway.dying()).toBe(true);
      expect((await gateway.stop()).how).toBe("already-exited");
    } finally {
      await gateway.stop(); // idempotent; stops it should anything above fail
    }
  });

  it("a missing binary is not-run with the reason", async () => {
    const adapter = fakeGatewayAdapter();
    const broken = {
      ...adapter,
      install: (await import("./binary.ts")).binaryAdapter({
        name: "nope",
        description: "",
        binary: "gatecheck-no-such-binary",
        writeConfig: async () => [],
        command: () => ({ command: "x", args: [] }),
        routes: () => [],
      }).install,
    };
    const started = await startGateway(
      broken,
      { name: "nope", version: "system" },
      {
        workdir: join(root, "nope"),
        mockUrl: () => mock.url,
      },
    );
    expect(started).toMatchObject({
      status: "not-run",
      reason: "nope@system: gatecheck-no-such-binary not found on PATH",
    });
  });
});
