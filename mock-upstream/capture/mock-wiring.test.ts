import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { createMockApp, createMockState } from "../app.ts";
import { startMock } from "../index.ts";
import { parseRecordLines } from "../record-schema.ts";
import { installReplay, recordThroughRoute } from "./mock-wiring.ts";
import { createRecordThrough } from "./record-through.ts";
import { loadCaptureFile } from "./replay-file.ts";
import { type LocalServer, rawRequest, startUpstream } from "./test-support.ts";

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

describe("startMock options", () => {
  it("upstream + captureFile: a record-through listener; replay: the capture served back", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gatecheck-wiring-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const provider = await startMock({ name: "provider" });
    cleanups.push(() => provider.close());
    const captureFile = join(dir, "run.jsonl");
    const through = await startMock({ upstream: provider.url, captureFile });
    cleanups.push(() => through.close());
    const body = JSON.stringify({
      model: "gpt-4o",
      stream: true,
      messages: [{ role: "user", content: "gc-00000000000000e1" }],
    });
    const send = (port: number) =>
      rawRequest(port, {
        path: "/v1/chat/completions",
        headers: [["Content-Type", "application/json"]],
        body,
      });
    const live = await send(through.port);
    expect(live.complete).toBe(true);
    expect(provider.records()[0]?.nonce).toBe("gc-00000000000000e1");
    const [exchange] = await loadCaptureFile(captureFile);
    expect(exchange?.nonce).toBe("gc-00000000000000e1");

    const replay = await startMock({ replay: captureFile, replayTimeScale: 0 });
    cleanups.push(() => replay.close());
    const replayed = await send(replay.port);
    expect(replayed.body.equals(live.body)).toBe(true);
    expect(replayed.chunks.map((c) => c.payload.toString())).toEqual(
      live.chunks.map((c) => c.payload.toString()),
    );
    expect(replay.records()[0]?.reply.staged).toBe(true);
  });
});

describe("record-through with a record file", () => {
  it("writes every forwarded exchange to the record file, redacted, as any mock record", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gatecheck-wiring-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const provider = await startMock({ name: "provider" });
    cleanups.push(() => provider.close());
    provider.stage({
      reply: { body: { json: { echoed: "sk-proj-abcdefghijklmnopqrstuvwx0123" } } },
    });
    const recordFile = join(dir, "records.jsonl");
    const through = await startMock({ name: "through", upstream: provider.url, recordFile });
    const body = JSON.stringify({
      model: "gpt-4o",
      messages: [{ role: "user", content: "gc-00000000000000e2" }],
    });
    const answer = await rawRequest(through.port, {
      path: "/v1/chat/completions",
      headers: [
        ["Content-Type", "application/json"],
        ["Authorization", "Bearer sk-proj-abcdefghijklmnopqrstuvwx9999"],
      ],
      body,
    });
    expect(answer.status).toBe(200);
    expect(through.records()).toHaveLength(1);
    await through.close();
    const text = readFileSync(recordFile, "utf8");
    expect(text).not.toContain("abcdefghijklmnopqrstuvwx");
    const [record, ...rest] = parseRecordLines(text, recordFile);
    expect(rest).toHaveLength(0);
    expect(record).toMatchObject({
      seq: 1,
      listener: "through",
      bodyBytes: Buffer.byteLength(body),
      dialect: "openai-chat",
      kind: "generate",
      nonce: "gc-00000000000000e2",
      model: "gpt-4o",
      stream: false,
      request: { method: "POST", path: "/v1/chat/completions" },
      reply: { status: 200, staged: false },
    });
    expect(record?.request.headers).toContainEqual([
      "authorization",
      expect.stringMatching(/^Bearer \[REDACTED:[0-9a-f]{8}\]$/),
    ]);
    expect(JSON.parse(record?.reply.body.data ?? "")).toEqual({
      echoed: expect.stringMatching(/^\[REDACTED:/),
    });
  });
});
