import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { direct } from "./adapters/direct.ts";
import { checkRoute, checkRoutes, type DoctorMock } from "./doctor.ts";
import { startGateway } from "./start.ts";
import { startTinyMock, type TinyMock } from "./testing/tiny-mock.ts";

/** The tiny mock as a route's check reads it: every route reaches it. */
function tinyView(tiny: TinyMock): DoctorMock {
  return {
    urlFor: () => tiny.url,
    forwarded: async (_route, nonce) =>
      tiny.records
        .filter((r) => r.body.includes(nonce))
        .map((r) => ({ method: r.method, path: r.path })),
  };
}

let mock: TinyMock;
let view: DoctorMock;
beforeAll(async () => {
  mock = await startTinyMock();
  view = tinyView(mock);
});
afterAll(() => mock.close());

async function directGateway() {
  const started = await startGateway(
    direct,
    { name: "direct", version: "0" },
    { workdir: "/nonexistent", mockUrl: () => mock.url },
  );
  if (started.status !== "running") throw new Error(started.reason);
  return started;
}

describe("doctor against the direct control column", () => {
  it("every direct route works in both modes and reaches the mock on its own dialect's path", async () => {
    const { gateway, routes } = await directGateway();
    const checks = await checkRoutes(gateway, routes, view);
    expect(checks).toHaveLength(6);
    for (const c of checks)
      expect(c, `${c.route} ${c.mode}: ${c.detail}`).toMatchObject({
        worked: true,
        asDocumented: true,
      });
    expect(checks.map((c) => c.reached[0])).toEqual([
      "/v1/chat/completions",
      "/v1/chat/completions",
      "/v1/responses",
      "/v1/responses",
      "/v1/messages",
      "/v1/messages",
    ]);
  });

  it("a route documented as failing that works is flagged, and one that lands on the wrong dialect fails", async () => {
    const { gateway, routes } = await directGateway();
    const chat = routes[0];
    if (!chat) throw new Error("no route");
    const surprise = await checkRoute(gateway, { ...chat, status: "fails" }, view, false);
    expect(surprise).toMatchObject({ worked: true, asDocumented: false });
    const misrouted = await checkRoute(gateway, { ...chat, backend: "gemini" }, view, false);
    expect(misrouted.worked).toBe(false);
    expect(misrouted.detail).toMatch(
      /reached \/v1\/chat\/completions, not a path the google gemini backend serves/,
    );
  });

  it("a route to a provider's mount of a dialect works when the request reached that mount", async () => {
    // DeepSeek's Anthropic API under /anthropic, reached through the direct column.
    const provider = await startTinyMock({ prefix: "/anthropic" });
    try {
      const started = await startGateway(
        direct,
        { name: "direct", version: "0" },
        { workdir: "/nonexistent", mockUrl: () => provider.url },
      );
      if (started.status !== "running") throw new Error(started.reason);
      const messages = started.routes.find((r) => r.client === "anthropic-messages");
      if (!messages) throw new Error("no route");
      const mounted = { ...messages, ingressPath: "/anthropic/v1/messages", persona: "deepseek" };
      const seen = tinyView(provider);
      const check = await checkRoute(
        started.gateway,
        mounted,
        { ...seen, mountOf: () => ({ at: "/anthropic", replaces: "" }) },
        false,
      );
      expect(check.reached).toEqual(["/anthropic/v1/messages"]);
      expect(check).toMatchObject({ worked: true, asDocumented: true });
      // Without the mount, the same path is no Messages path.
      expect((await checkRoute(started.gateway, mounted, seen, false)).worked).toBe(false);
    } finally {
      await provider.close();
    }
  });

  it("a dead gateway is a transport failure that never reached the mock", async () => {
    const { routes } = await directGateway();
    const chat = routes[0];
    if (!chat) throw new Error("no route");
    const dead = {
      label: "x",
      baseUrl: "http://127.0.0.1:1",
      attached: true,
      exited: () => undefined,
      logTail: () => [],
      stop: async () => ({ gone: true, how: "not-owned" as const }),
    };
    const check = await checkRoute(dead, chat, view, false, { timeoutMs: 2000 });
    expect(check).toMatchObject({ worked: false, reached: [] });
    expect(check.detail).toMatch(/^transport: /);
  });
});
