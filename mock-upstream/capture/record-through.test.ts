import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CaptureError } from "./capture-error.ts";
import { Exchange, replyFrames } from "./exchange.ts";
import { createRecordThrough, type RecordThroughHandler } from "./record-through.ts";
import {
  delay,
  type LocalServer,
  rawRequest,
  SSE_FRAMES,
  startFront,
  startUpstream,
  WRITERS,
  type Writer,
} from "./test-support.ts";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-capture-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Upstream + record-through + front, all torn down after the test. */
async function rig(
  respond: Parameters<typeof startUpstream>[0],
  writer: Writer = "node",
): Promise<{
  upstream: Awaited<ReturnType<typeof startUpstream>>;
  front: LocalServer;
  handler: RecordThroughHandler;
  file: string;
  exchanges: Exchange[];
}> {
  const upstream = await startUpstream(respond);
  cleanups.push(() => upstream.close());
  const file = join(dir, `${Math.random().toString(16).slice(2)}.jsonl`);
  const exchanges: Exchange[] = [];
  const handler = createRecordThrough({
    upstream: upstream.url,
    captureFile: file,
    onExchange: (e) => exchanges.push(e),
  });
  cleanups.push(() => handler.close());
  const front = await startFront(handler, writer);
  cleanups.push(() => front.close());
  return { upstream, front, handler, file, exchanges };
}

/** The capture file, every line validated by the schema. */
function readCapture(file: string): Exchange[] {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => Exchange.parse(JSON.parse(line)));
}

const SECRET = "sk-proj-abcdefghijklmnopqrstuvwx";

describe("record-through: JSON", () => {
  it("forwards method, path, query, end-to-end headers and body exactly; records both sides redacted", async () => {
    const reply = '{"id":"chatcmpl-1","object":"chat.completion","choices":[]}';
    const { upstream, front, handler, file } = await rig((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "X-Request-Id": "req_42" });
      res.end(reply);
    });
    const body =
      '{"model":"gpt-4o","messages":[{"role":"user","content":"gc-0123456789abcdef hi"}]}';
    const client = await rawRequest(front.port, {
      path: "/v1/chat/completions?api-version=1&key=AIzaSyA-secret-secret-secret-1234",
      headers: [
        ["Authorization", `Bearer ${SECRET}`],
        ["X-Trace-Id", "t-1"],
        ["Connection", "X-Drop-Me"],
        ["X-Drop-Me", "hop"],
        ["Proxy-Authorization", "Basic cHJveHk="],
        ["Content-Type", "application/json"],
      ],
      body,
    });
    await handler.flush();

    expect(client.status).toBe(200);
    expect(client.body.toString()).toBe(reply);
    expect(client.headers).toContainEqual(["x-request-id", "req_42"]);

    const seen = upstream.seen[0];
    expect(seen?.method).toBe("POST");
    expect(seen?.url).toBe(
      "/v1/chat/completions?api-version=1&key=AIzaSyA-secret-secret-secret-1234",
    );
    expect(seen?.body.toString()).toBe(body);
    const names = seen?.headers.map(([name]) => name) ?? [];
    expect(names).toContain("X-Trace-Id");
    expect(names).toContain("Authorization");
    expect(names.map((n) => n.toLowerCase())).not.toContain("x-drop-me");
    expect(names.map((n) => n.toLowerCase())).not.toContain("proxy-authorization");
    expect(seen?.headers).toContainEqual(["Host", `127.0.0.1:${upstream.port}`]);

    const [exchange] = readCapture(file);
    expect(exchange?.nonce).toBe("gc-0123456789abcdef");
    expect(exchange?.model).toBe("gpt-4o");
    expect(exchange?.dialect).toBe("openai-chat");
    // The wire vocabulary's request: the path with its query (credentials redacted), names in
    // lower case.
    expect(exchange?.request.path).toMatch(
      /^\/v1\/chat\/completions\?api-version=1&key=\[REDACTED:[0-9a-f]{8}\]$/,
    );
    const captured = JSON.stringify(exchange);
    expect(captured).not.toContain(SECRET);
    expect(captured).not.toContain("AIzaSyA-secret");
    expect(exchange?.request.headers).toContainEqual(["x-trace-id", "t-1"]);
    expect(exchange?.reply.status).toBe(200);
    expect(exchange?.reply.headers).toContainEqual(["x-request-id", "req_42"]);
    expect(exchange?.reply.body).toEqual({ data: reply, encoding: "utf8" });
    expect(exchange?.end.kind).toBe("complete");
  });

  it("keeps content-encoding honest: gzip bytes are relayed and recorded compressed", async () => {
    const json = JSON.stringify({ error: { message: "overloaded", type: "overloaded_error" } });
    const gz = gzipSync(json);
    const { upstream, front, handler, file } = await rig((req, res) => {
      const gzip = /gzip/.test(String(req.headers["accept-encoding"]));
      res.writeHead(529, {
        "Content-Type": "application/json",
        ...(gzip ? { "Content-Encoding": "gzip" } : {}),
      });
      res.end(gzip ? gz : json);
    });
    const client = await rawRequest(front.port, {
      path: "/v1/messages",
      headers: [["Accept-Encoding", "gzip"]],
      body: "{}",
    });
    await handler.flush();
    expect(upstream.seen[0]?.headers).toContainEqual(["Accept-Encoding", "gzip"]);
    expect(client.status).toBe(529);
    expect(client.headers).toContainEqual(["content-encoding", "gzip"]);
    expect(client.body.equals(gz)).toBe(true);
    expect(gunzipSync(client.body).toString()).toBe(json);
    const [exchange] = readCapture(file);
    expect(exchange?.reply.body.encoding).toBe("base64");
    expect(Buffer.from(exchange?.reply.body.data ?? "", "base64").equals(gz)).toBe(true);
  });
});

const GAP_MS = 60;

describe.each(WRITERS)("record-through: streams (written by %s)", (writer) => {
  it("relays each upstream write as one client chunk, as it arrives, and records the frames", async () => {
    // The upstream writes a frame only once the client holds the one before: a relay that
    // buffered would stall this test (it fails on its timeout), and two frames can never
    // share one client read however busy the machine is.
    let received = Buffer.alloc(0);
    const arrivals: (() => void)[] = [];
    const clientHas = (frame: Buffer) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (received.includes(frame)) resolve();
          else arrivals.push(check);
        };
        check();
      });
    const { front, handler, file } = await rig(async (_req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      res.socket?.setNoDelay(true);
      for (const frame of SSE_FRAMES) {
        res.write(frame);
        await clientHas(frame);
        await delay(GAP_MS);
      }
      res.end();
    });
    const client = await rawRequest(
      front.port,
      { path: "/v1/chat/completions", body: '{"stream":true}' },
      (bytes) => {
        received = Buffer.concat([received, bytes]);
        for (const check of arrivals.splice(0)) check();
      },
    );
    await handler.flush();

    expect(client.complete).toBe(true);
    expect(client.chunks.map((c) => c.payload.toString("hex"))).toEqual(
      SSE_FRAMES.map((f) => f.toString("hex")),
    );
    // Each frame arrived in its own read, spaced like the upstream wrote them: no buffering.
    const readsOf = client.chunks.map((c) => c.read);
    expect(new Set(readsOf).size).toBe(SSE_FRAMES.length);
    const first = client.chunks[0]?.at ?? 0;
    const last = client.chunks.at(-1)?.at ?? 0;
    expect(last - first).toBeGreaterThan(GAP_MS * (SSE_FRAMES.length - 1) * 0.7);

    const [exchange] = readCapture(file);
    // Every byte once, and each read's size: a frame ending inside é splits where it did.
    const frames = exchange ? replyFrames(exchange.reply) : [];
    expect(frames.map((f) => f.bytes.toString("hex"))).toEqual(
      SSE_FRAMES.map((f) => f.toString("hex")),
    );
    expect(exchange?.reply.body.encoding).toBe("utf8");
    const times = frames.map((f) => f.atMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect((times.at(-1) ?? 0) - (times[0] ?? 0)).toBeGreaterThan(GAP_MS * 3 * 0.7);
    expect(exchange?.end.kind).toBe("complete");
  });

  it("an upstream reset mid-stream reaches the client as a dropped connection and is recorded", async () => {
    const { front, handler, file } = await rig(async (_req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.socket?.setNoDelay(true);
      res.write("event: message_start\ndata: {}\n\n");
      await delay(GAP_MS);
      res.write("event: content_block_delta\ndata: {");
      await delay(GAP_MS);
      res.socket?.resetAndDestroy();
    }, writer);
    const client = await rawRequest(front.port, { path: "/v1/messages", body: "{}" });
    await handler.flush();

    expect(client.status).toBe(200);
    expect(client.complete).toBe(false);
    expect(client.chunks.map((c) => c.payload.toString())).toEqual([
      "event: message_start\ndata: {}\n\n",
      "event: content_block_delta\ndata: {",
    ]);
    // sendToNode resets the client socket the way the upstream reset ours.
    if (writer === "node") expect(client.socketError).toBe("ECONNRESET");
    const [exchange] = readCapture(file);
    expect(exchange?.end.kind).toBe("reset");
    expect(exchange?.reply.frames).toHaveLength(2);
  });

  it("a client that goes away mid-stream aborts the upstream request and is recorded", async () => {
    let upstreamClosed = false;
    const { front, exchanges } = await rig(async (req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      req.socket.on("close", () => {
        upstreamClosed = true;
      });
      for (let i = 0; i < 100 && !res.destroyed; i++) {
        res.write(`data: ${i}\n\n`);
        await delay(20);
      }
      res.end();
    }, writer);
    const socket = connect(front.port, "127.0.0.1");
    socket.write("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
    await once(socket, "data");
    socket.destroy();
    for (let i = 0; i < 50 && (!upstreamClosed || exchanges.length === 0); i++) await delay(20);
    expect(upstreamClosed).toBe(true);
    expect(exchanges[0]?.end.kind).toBe("client-cancelled");
    expect(exchanges[0]?.reply.frames.length).toBeLessThan(50);
  });

  it("an unreachable upstream gives the client a 502 and records why", async () => {
    const gone = await startUpstream(() => {});
    await gone.close();
    const exchanges: Exchange[] = [];
    const handler = createRecordThrough({
      upstream: gone.url,
      onExchange: (e) => exchanges.push(e),
    });
    cleanups.push(() => handler.close());
    const front = await startFront(handler, writer);
    cleanups.push(() => front.close());
    const client = await rawRequest(front.port, { path: "/v1/chat/completions", body: "{}" });
    expect(client.status).toBe(502);
    expect(JSON.parse(client.body.toString()).error.type).toBe("gatecheck_upstream_unreachable");
    expect(exchanges[0]?.end.kind).toBe("upstream-unreachable");
    expect(exchanges[0]?.reply.synthesized).toBe(true);
    expect(Exchange.safeParse(exchanges[0]).success).toBe(true);
  });
});

describe("record-through: options", () => {
  it("rejects an upstream that is not an http(s) URL", () => {
    expect(() => createRecordThrough({ upstream: "ftp://x" })).toThrow(CaptureError);
    expect(() => createRecordThrough({ upstream: "not a url" })).toThrow(
      /expected an http\(s\) URL/,
    );
  });

  it("answers 502 for a status no Response can carry, and says so", async () => {
    const { front, exchanges } = await rig((_req, res) => {
      res.writeHead(600);
      res.end("odd");
    });
    const client = await rawRequest(front.port, { path: "/v1/chat/completions", body: "{}" });
    expect(client.status).toBe(502);
    expect(exchanges[0]?.end).toMatchObject({
      kind: "upstream-unreachable",
      error: "upstream answered with status 600",
    });
  });

  it("prefixes the upstream's own path", async () => {
    const { upstream } = await rig((_req, res) => {
      res.end("ok");
    });
    const handler = createRecordThrough({ upstream: `${upstream.url}/api/v1/` });
    cleanups.push(() => handler.close());
    const front = await startFront(handler);
    cleanups.push(() => front.close());
    await rawRequest(front.port, { path: "/chat/completions", body: "{}" });
    expect(upstream.seen.at(-1)?.url).toBe("/api/v1/chat/completions");
  });
});
