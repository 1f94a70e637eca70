import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { direct } from "./adapters/direct.ts";
import { checkRoute, checkRoutes, type DoctorMock, servedPath, servesForwarded } from "./doctor.ts";
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

describe("what a backend's provider serves", () => {
  const deepseekMessages = { at: "/anthropic", replaces: "" };
  const googleChat = { at: "/v1beta/openai", replaces: "/v1" };

  it("a POST to one of the backend dialect's generate paths, under the provider's mount", () => {
    const post = (path: string) => ({ method: "POST", path });
    expect(servesForwarded("openai-chat", undefined, post("/v1/chat/completions"))).toBe(true);
    expect(servesForwarded("openai-chat", undefined, post("/v1/v1/chat/completions"))).toBe(false);
    expect(servesForwarded("openai-chat", undefined, post("/v1/models"))).toBe(false);
    expect(servesForwarded("openai-chat", undefined, post("/v1/messages"))).toBe(false);
    expect(
      servesForwarded("openai-chat", undefined, { method: "GET", path: "/v1/chat/completions" }),
    ).toBe(false);
    expect(
      servesForwarded("anthropic-messages", deepseekMessages, post("/anthropic/v1/messages")),
    ).toBe(true);
    expect(
      servesForwarded("anthropic-messages", deepseekMessages, post("/anthropic/v1/v1/messages")),
    ).toBe(false);
    expect(
      servesForwarded("openai-chat", googleChat, post("/v1beta/openai/chat/completions")),
    ).toBe(true);
    // Gemini streams through its own method; `?alt=sse` or not, the provider serves it.
    const stream = "/v1beta/models/m:streamGenerateContent";
    expect(servesForwarded("gemini", undefined, post(`${stream}?alt=sse`))).toBe(true);
    expect(servesForwarded("gemini", undefined, post(`${stream}?key=x`))).toBe(true);
  });

  it("names the path the provider serves in the reason", () => {
    expect(servedPath("openai-chat", undefined, "m")).toBe("/v1/chat/completions");
    expect(servedPath("anthropic-messages", deepseekMessages, "m")).toBe("/anthropic/v1/messages");
    expect(servedPath("openai-chat", googleChat, "m")).toBe("/v1beta/openai/chat/completions");
    expect(servedPath("gemini", undefined, "a/b")).toBe("/v1beta/models/a%2Fb:generateContent");
  });

  it("a route whose request reached an unserved path fails its preflight, its path named; an answer without a forward fails it too", async () => {
    const { gateway, routes } = await directGateway();
    const chat = routes[0];
    if (!chat) throw new Error("no route");
    const misrouted = await checkRoute(gateway, { ...chat, backend: "gemini" }, view, false);
    expect(misrouted.preflight).toEqual({
      reason:
        "forwarded to POST /v1/chat/completions, which the google gemini backend does not serve (it serves POST /v1beta/models/gatecheck-model:generateContent); see the base URL or custom host the adapter gives the gateway",
      unservedPath: true,
    });
    const unreached: DoctorMock = { ...view, forwarded: async () => [] };
    const refused = await checkRoute(gateway, chat, unreached, false);
    expect(refused.clientStatus).toBe(200);
    expect(refused.preflight).toEqual({
      reason: "the plain request never reached the mock",
      unservedPath: false,
    });
    const fine = await checkRoute(gateway, chat, view, true);
    expect(fine.preflight).toBeUndefined();
  });

  it("a gateway that never answered fails no preflight: the cells meet the same", async () => {
    const { routes } = await directGateway();
    const chat = routes[0];
    if (!chat) throw new Error("no route");
    const check = await checkRoute({ baseUrl: "http://127.0.0.1:1" }, chat, view, false, {
      timeoutMs: 2000,
    });
    expect(check.worked).toBe(false);
    expect(check.preflight).toBeUndefined();
  });
});
