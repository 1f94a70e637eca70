/**
 * Confinement for real: a stand-in gateway that binds 0.0.0.0 (as GoModel does, with no flag
 * against it) runs in a network namespace of its own. Through 127.0.0.1 it answers and
 * reaches the mock; on the host nothing of it listens beyond loopback; in its namespace the
 * only interface is `lo`; stopped, nothing is left and its port is free again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { exposedSockets, listeningSockets } from "../listening-sockets.ts";
import { freePort } from "../ports.ts";
import { groupMembers, trackedGroups } from "../process-group.ts";
import { FAKE_GATEWAY_MJS } from "../testing/fake-gateway.ts";
import { startTinyMock, type TinyMock } from "../testing/tiny-mock.ts";
import { launchConfined, netnsUnavailable } from "./netns.ts";

let mock: TinyMock;
const root = mkdtempSync(join(tmpdir(), "gatecheck-netns-"));
beforeAll(async () => {
  mock = await startTinyMock();
});
afterAll(async () => {
  await mock.close();
  rmSync(root, { recursive: true, force: true });
});

it("this machine can confine a gateway to a network namespace of its own", () => {
  expect(netnsUnavailable()).toBeUndefined();
});

it("a gateway that binds every interface answers on loopback only, reaches the mock, and leaves nothing", async () => {
  const port = await freePort();
  const running = await launchConfined(
    {
      spec: { name: "everywhere", version: "1" },
      install: { status: "ok", cached: true },
      workdir: join(root, "gw"),
      mockUrl: () => mock.url,
      port,
      readyTimeoutMs: 20_000,
    },
    {
      command: process.execPath,
      args: [FAKE_GATEWAY_MJS, `--port=${port}`, "--host=0.0.0.0", `--upstream=${mock.url}`],
    },
  );
  try {
    const reply = await fetch(`${running.baseUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "CONFINED-PROBE" }] }),
    });
    expect(reply.status).toBe(200);
    expect(mock.records.some((r) => r.body.includes("CONFINED-PROBE"))).toBe(true);

    const members = groupMembers(running.pid ?? -1) ?? [];
    const sockets = members.flatMap(listeningSockets);
    // The stand-in's own socket: 0.0.0.0 inside its namespace, whose only interface is lo.
    expect(sockets).toContainEqual({
      pid: expect.any(Number),
      address: "0.0.0.0",
      port,
      interfaces: ["lo"],
    });
    expect(exposedSockets(sockets)).toEqual([]);
    // On the host, the port is held on 127.0.0.1 by the relay, and nothing else holds it.
    const onHost = listeningSockets(process.pid).filter((s) => s.port === port);
    expect(onHost.map((s) => s.address)).toEqual(["127.0.0.1"]);
  } finally {
    const stop = await running.stop();
    expect(stop.gone).toBe(true);
  }
  expect(trackedGroups()).toEqual([]);
  // The relay let go of the port.
  await new Promise<void>((resolve, reject) => {
    const again = createServer();
    again.once("error", reject);
    again.listen({ host: "127.0.0.1", port }, () => again.close(() => resolve()));
  });
}, 60_000);

it("exposedSockets: beyond loopback in a namespace with another interface is exposed, nothing else", () => {
  const at = (address: string, interfaces: string[]) => ({ pid: 1, address, port: 80, interfaces });
  expect(
    exposedSockets([
      at("0.0.0.0", ["lo", "eth0"]),
      at("::", ["lo", "eth0"]),
      at("0.0.0.0", ["lo"]),
      at("127.0.0.1", ["lo", "eth0"]),
      at("::1", ["lo", "eth0"]),
      at("::ffff:127.0.0.1", ["lo", "eth0"]),
    ]).map((s) => s.address),
  ).toEqual(["0.0.0.0", "::"]);
  // Read from /proc for real: the mock this test started listens on 127.0.0.1.
  const port = Number(new URL(mock.url).port);
  expect(listeningSockets(process.pid).find((s) => s.port === port)?.address).toBe("127.0.0.1");
});
