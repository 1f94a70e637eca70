/**
 * The runnable gateways, for real: installed on demand (cached per name@version), started
 * against the tiny mock, one request through a working route, then SIGKILLed mid-request.
 * The adapter must report the death and nothing of the gateway may survive.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GatewayAdapter } from "./adapter.ts";
import { claudeCodeRouter } from "./adapters/claude-code-router.ts";
import { portkey } from "./adapters/portkey.ts";
import { checkRoute, DOCTOR_MODEL, doctorBody } from "./doctor.ts";
import { groupMembers, pidAlive, trackedGroups } from "./process-group.ts";
import { startGateway } from "./start.ts";
import { startTinyMock, type TinyMock } from "./testing/tiny-mock.ts";

let mock: TinyMock;
const root = mkdtempSync(join(tmpdir(), "gatecheck-real-"));
beforeAll(async () => {
  mock = await startTinyMock();
});
afterAll(async () => {
  await mock.close();
  rmSync(root, { recursive: true, force: true });
});

const CASES: [string, GatewayAdapter, string][] = [
  ["portkey", portkey, "openai-chat->anthropic-messages"],
  ["claude-code-router", claudeCodeRouter, "anthropic-messages->gemini"],
];

describe.each(CASES)("%s", (_name, adapter, routeId) => {
  it("carries a request to the mock, then dies of SIGKILL mid-request, reported and leaving nothing", async () => {
    const spec = { name: adapter.name, version: adapter.defaultVersion };
    const started = await startGateway(adapter, spec, {
      workdir: join(root, adapter.name),
      mockUrl: () => mock.url,
    });
    if (started.status !== "running")
      throw new Error(`${started.reason}\n${started.logTail?.join("\n")}`);
    const { gateway } = started;
    const pid = gateway.pid ?? -1;
    const route = started.routes.find((r) => r.id === routeId);
    if (!route) throw new Error(`no route ${routeId}`);
    const mockView = {
      urlFor: () => mock.url,
      forwarded: async (_route: unknown, nonce: string) =>
        mock.records
          .filter((r) => r.body.includes(nonce))
          .map((r) => ({ method: r.method, path: r.path })),
    };
    const check = await checkRoute(gateway, route, mockView, false);
    expect(check, check.detail).toMatchObject({ worked: true });

    mock.hold("KILL-ME-MIDWAY");
    const body = doctorBody(route.client, route.model(DOCTOR_MODEL), "KILL-ME-MIDWAY", false);
    const pending = fetch(`${gateway.baseUrl}${route.ingressPath}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...route.headers({ mockUrl: () => mock.url, apiKey: "sk-gatecheck-test-000000000" }),
      },
      body: JSON.stringify(body),
    }).then(
      (r) => `status ${r.status}`,
      (e: Error) => `transport error: ${e.message}`,
    );
    while (!mock.records.some((r) => r.body.includes("KILL-ME-MIDWAY")))
      await new Promise((r) => setTimeout(r, 20));
    process.kill(-pid, "SIGKILL");
    expect(await pending).toMatch(/transport error/);
    mock.hold(undefined);
    while (!gateway.exited()) await new Promise((r) => setTimeout(r, 20));
    expect(gateway.exited()).toEqual({ signal: "SIGKILL" });
    const stop = await gateway.stop();
    expect(stop).toMatchObject({ gone: true, how: "already-exited" });
    expect(pidAlive(pid)).toBe(false);
    expect(groupMembers(pid)).toEqual([]);
    expect(trackedGroups()).toEqual([]);
  }, 180_000);
});
