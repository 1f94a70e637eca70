import { join } from "node:path";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { createMockApp, createMockState } from "../app.ts";
import { installReplay, recordThroughRoute } from "./mock-wiring.ts";
import { createRecordThrough } from "./record-through.ts";
import { type LocalServer, startUpstream } from "./test-support.ts";

const FIXTURES = join(import.meta.dirname, "fixtures");
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const chat = (model: string, text: string): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ model, messages: [{ role: "user", content: text }] }),
});

describe("installReplay", () => {
  it("serves a capture file through the mock's pipeline, recorded, and survives reset", async () => {
    const state = createMockState();
    installReplay(state.stages, join(FIXTURES, "three-exchanges.jsonl"));
    const app = createMockApp({}, state);
    const first = await app.request("/v1/chat/completions", chat("gpt-4o", "gc-00000000000000aa"));
    expect(await first.text()).toBe('{"ex":"a"}');
    expect(state.recorder.list()[0]?.reply.staged).toBe(true);
    await app.request("/__gatecheck/reset", { method: "POST" });
    expect(state.recorder.list()).toHaveLength(0);
    const again = await app.request("/v1/messages", chat("claude-sonnet-4-5", "hi"));
    expect(await again.text()).toBe('{"ex":"c"}');
  });

  it("refuses a bad file, naming it", () => {
    const state = createMockState();
    expect(() => installReplay(state.stages, join(FIXTURES, "missing.jsonl"))).toThrow(
      /missing\.jsonl: cannot read capture file/,
    );
  });
});

describe("recordThroughRoute", () => {
  let upstream: LocalServer & { seen: { url: string }[] };
  it("forwards from app.request too (no Node socket)", async () => {
    upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    });
    cleanups.push(() => upstream.close());
    const forward = createRecordThrough({ upstream: upstream.url });
    cleanups.push(() => forward.close());
    const app = new Hono();
    app.all("*", recordThroughRoute(forward));
    const response = await app.request("/v1/chat/completions?x=1", chat("gpt-4o", "hi"));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"ok":true}');
    expect(upstream.seen[0]?.url).toBe("/v1/chat/completions?x=1");
  });
});
