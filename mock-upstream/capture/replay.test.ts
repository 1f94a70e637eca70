import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { WireReply } from "../wire-plan.ts";
import { CaptureError } from "./capture-error.ts";
import type { Exchange } from "./exchange.ts";
import type { IncomingRequestInfo } from "./incoming.ts";
import { createRecordThrough } from "./record-through.ts";
import { createReplayHandler, loadReplay, replayPlan } from "./replay.ts";
import { loadCaptureFile, parseCapture } from "./replay-file.ts";
import { ReplayMatcher } from "./replay-match.ts";
import {
  delay,
  type RawExchange,
  rawRequest,
  SSE_FRAMES,
  startFront,
  startUpstream,
  WRITERS,
  type Writer,
} from "./test-support.ts";

const FIXTURES = join(import.meta.dirname, "fixtures");
const GAP_MS = 60;

let dir: string;
let recorded: string;
let upstreamView: RawExchange;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-replay-"));
  recorded = join(dir, "sse.jsonl");
  // Record one real SSE exchange from a stand-in provider, through record-through.
  const upstream = await startUpstream(async (_req, res) => {
    res.writeHead(200, { "Content-Type": "text/event-stream", "X-Upstream": "yes" });
    res.socket?.setNoDelay(true);
    for (const frame of SSE_FRAMES) {
      res.write(frame);
      await delay(GAP_MS);
    }
    res.end();
  });
  upstreamView = await rawRequest(upstream.port, { path: "/v1/chat/completions", body: "{}" });
  const handler = createRecordThrough({ upstream: upstream.url, captureFile: recorded });
  const front = await startFront(handler);
  await rawRequest(front.port, {
    path: "/v1/chat/completions",
    body: '{"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"gc-1111111111111111"}]}',
  });
  await handler.flush();
  handler.close();
  await front.close();
  await upstream.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function serveReplay(file: string, timeScale?: number, writer: Writer = "node") {
  const replay = await loadReplay(file);
  const front = await startFront(createReplayHandler(replay, { timeScale }), writer);
  cleanups.push(() => front.close());
  return front;
}

const spread = (view: RawExchange) => (view.chunks.at(-1)?.at ?? 0) - (view.chunks[0]?.at ?? 0);

describe("replay over a real socket", () => {
  it("serves a recorded stream byte-exact with its frame boundaries and timing", async () => {
    const front = await serveReplay(recorded);
    const client = await rawRequest(front.port, {
      path: "/v1/chat/completions",
      body: '{"model":"gpt-4o","messages":[{"role":"user","content":"gc-1111111111111111"}]}',
    });
    expect(client.status).toBe(200);
    expect(client.complete).toBe(true);
    expect(client.headers).toContainEqual(["content-type", "text/event-stream"]);
    expect(client.headers).toContainEqual(["x-upstream", "yes"]);
    // The same chunks the provider wrote, each in its own read, as a direct client saw them.
    const payloads = client.chunks.map((c) => c.payload.toString("hex"));
    expect(payloads).toEqual(SSE_FRAMES.map((f) => f.toString("hex")));
    expect(payloads).toEqual(upstreamView.chunks.map((c) => c.payload.toString("hex")));
    expect(new Set(client.chunks.map((c) => c.read)).size).toBe(SSE_FRAMES.length);
    expect(spread(client)).toBeGreaterThan(GAP_MS * 3 * 0.7);
  });

  it("scales timings and keeps the bytes", async () => {
    const front = await serveReplay(recorded, 0.25);
    const client = await rawRequest(front.port, { path: "/v1/chat/completions", body: "{}" });
    expect(client.body.equals(Buffer.concat(SSE_FRAMES))).toBe(true);
    expect(client.chunks.map((c) => c.payload.toString("hex"))).toEqual(
      SSE_FRAMES.map((f) => f.toString("hex")),
    );
    // The speed-up is the plan's (a wall-clock bound would fail on a busy machine).
    const [exchange] = await loadCaptureFile(recorded);
    const delays = (scale: number) =>
      replayPlan(exchange as Exchange, { timeScale: scale }).frames.map((f) => f.delayMs);
    expect(delays(0.25)).toEqual(delays(1).map((ms) => ms * 0.25));
    expect(Math.max(...delays(1))).toBeGreaterThan(0);
  });

  it.each(WRITERS)(
    "replays an upstream that failed mid-stream as a dropped connection after the same bytes (%s)",
    async (writer) => {
      const front = await serveReplay(join(FIXTURES, "anthropic-stream-reset.jsonl"), 0.5, writer);
      const client = await rawRequest(front.port, { path: "/v1/messages", body: "{}" });
      expect(client.status).toBe(200);
      expect(client.headers).toContainEqual(["request-id", "req_fixture_1"]);
      expect(client.chunks.map((c) => c.payload.toString())).toEqual([
        'event: message_start\ndata: {"type":"message_start"}\n\n',
        'event: content_block_delta\ndata: {"type":"content_bl',
      ]);
      expect(client.complete).toBe(false);
      if (writer === "node") expect(client.socketError).toBe("ECONNRESET");
    },
  );

  it("answers 404 when no exchange matches", async () => {
    const front = await serveReplay(join(FIXTURES, "anthropic-stream-reset.jsonl"));
    const client = await rawRequest(front.port, { method: "GET", path: "/v1/models" });
    // `auto` falls back to order only once; the only exchange was not served yet, so it is.
    expect(client.status).toBe(200);
    const second = await rawRequest(front.port, { method: "GET", path: "/v1/models" });
    expect(second.status).toBe(404);
    expect(JSON.parse(second.body.toString()).error.type).toBe("gatecheck_replay_miss");
  });
});

describe("replay plan", () => {
  it("fits the mock's wire writer, with recorded gaps as delays", async () => {
    const [exchange] = await loadCaptureFile(join(FIXTURES, "anthropic-stream-reset.jsonl"));
    const plan: WireReply = replayPlan(exchange as Exchange, { timeScale: 2 });
    expect(plan.headersDelayMs).toBe(25);
    expect(plan.frames.map((f) => f.delayMs)).toEqual([15, 240]);
    expect(plan.ending).toBe("reset");
    expect((plan as ReturnType<typeof replayPlan>).endDelayMs).toBe(20);
    expect(plan.transfer).toBe("chunked");
    // Hop-by-hop headers are not replayed; the writer frames the body itself.
    expect(plan.headers.map(([n]) => n.toLowerCase())).toEqual(["content-type", "request-id"]);
  });

  it("refuses a negative or non-finite time scale", async () => {
    const [exchange] = await loadCaptureFile(join(FIXTURES, "anthropic-stream-reset.jsonl"));
    expect(() => replayPlan(exchange as Exchange, { timeScale: -1 })).toThrow(/timeScale/);
    expect(() => replayPlan(exchange as Exchange, { timeScale: Number.NaN })).toThrow(/timeScale/);
  });
});

describe("matching", () => {
  const request = (path: string, body: object, method = "POST"): IncomingRequestInfo => ({
    method,
    path,
    query: "",
    headers: [],
    body: Buffer.from(JSON.stringify(body)),
  });
  const ids = (matcher: ReplayMatcher, requests: IncomingRequestInfo[]) =>
    requests.map((r) => matcher.match(r)?.id);

  it("by nonce, by model and path, by path, then in order", async () => {
    const exchanges = await loadCaptureFile(join(FIXTURES, "three-exchanges.jsonl"));
    const matcher = new ReplayMatcher(exchanges);
    expect(
      ids(matcher, [
        request("/v1/messages", { model: "x", messages: "gc-00000000000000aa" }),
        request("/v1/chat/completions", { model: "gpt-4o-mini" }),
        request("/v1/messages", { model: "claude-sonnet-4-5" }),
      ]),
    ).toEqual(["ex-a", "ex-b", "ex-c"]);
  });

  it("serves the first unserved candidate, then repeats the last one", async () => {
    const exchanges = await loadCaptureFile(join(FIXTURES, "three-exchanges.jsonl"));
    const matcher = new ReplayMatcher(exchanges, "path");
    const chat = request("/v1/chat/completions", {});
    expect(ids(matcher, [chat, chat, chat])).toEqual(["ex-a", "ex-b", "ex-b"]);
  });

  it("in call order, each once, then nothing", async () => {
    const exchanges = await loadCaptureFile(join(FIXTURES, "three-exchanges.jsonl"));
    const matcher = new ReplayMatcher(exchanges, "order");
    const any = request("/anything", {}, "GET");
    expect(ids(matcher, [any, any, any, any])).toEqual(["ex-a", "ex-b", "ex-c", undefined]);
  });

  it("a strategy that finds nothing does not fall back", async () => {
    const exchanges = await loadCaptureFile(join(FIXTURES, "three-exchanges.jsonl"));
    const matcher = new ReplayMatcher(exchanges, "nonce");
    expect(matcher.match(request("/v1/messages", { text: "gc-ffffffffffffffff" }))).toBeUndefined();
  });
});

describe("capture file errors name the file and line", () => {
  const file = "captures/run.jsonl";
  const good = `${JSON.stringify({
    format: "gatecheck-capture/2",
    id: "x",
    startedAt: "2026-11-30T02:00:00.000Z",
    upstream: "http://127.0.0.1:1/",
    request: {
      method: "GET",
      path: "/v1/models",
      headers: [],
      body: { data: "", encoding: "utf8" },
    },
    reply: {
      status: 200,
      headers: [],
      body: { data: "{}", encoding: "utf8" },
      headersAtMs: 1,
      frames: [{ atMs: 2, bytes: 2 }],
    },
    end: { kind: "complete", atMs: 2 },
  })}`;

  it("accepts a valid line", () => {
    expect(parseCapture(`${good}\n`, file)).toHaveLength(1);
  });

  it("rejects a line that is not JSON", () => {
    expect(() => parseCapture(`${good}\n{"format":`, file)).toThrow(
      /^captures\/run\.jsonl:2: expected one JSON exchange per line/,
    );
  });

  it("rejects an exchange with a wrong field, naming the path and what was expected", () => {
    const bad = good.replace('"status":200', '"status":"200"');
    try {
      parseCapture(`\n${bad}`, file);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CaptureError);
      expect((error as CaptureError).code).toBe("invalid-exchange");
      expect((error as CaptureError).line).toBe(2);
      expect((error as Error).message).toMatch(
        /^captures\/run\.jsonl:2: .*reply\.status: .*expected number/,
      );
    }
  });

  it("rejects frames that go back in time", () => {
    const bad = good.replace('"frames":[{"atMs":2', '"frames":[{"atMs":0.5');
    expect(() => parseCapture(bad, file)).toThrow(
      /reply\.frames\.0\.atMs: expected frame times not to go back/,
    );
    const short = good.replace('"bytes":2', '"bytes":1');
    expect(() => parseCapture(short, file)).toThrow(
      /reply\.frames: expected the frames to add up to the body's 2 bytes, got 1/,
    );
  });

  it("reads a capture written before the wire vocabulary into the same exchange", async () => {
    const [legacy] = await loadCaptureFile(join(FIXTURES, "legacy-anthropic-stream-reset.jsonl"));
    const [today] = await loadCaptureFile(join(FIXTURES, "anthropic-stream-reset.jsonl"));
    expect(legacy).toEqual(today);
    const old = readFileSync(join(FIXTURES, "legacy-anthropic-stream-reset.jsonl"), "utf8");
    expect(() => parseCapture(old.replace('"at": 140', '"at": 1'), file)).toThrow(
      /frames\.1\.at: expected frame times not to go back/,
    );
  });

  it("rejects an empty file and an unreadable one", async () => {
    expect(() => parseCapture("\n\n", file)).toThrow(/no exchanges/);
    const missing = join(dir, "missing.jsonl");
    await expect(loadCaptureFile(missing)).rejects.toThrow(
      /missing\.jsonl: cannot read capture file/,
    );
    const empty = join(dir, "empty.jsonl");
    writeFileSync(empty, "");
    await expect(loadReplay(empty)).rejects.toMatchObject({ code: "empty-capture" });
  });
});
