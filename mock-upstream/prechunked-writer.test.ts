/**
 * The prechunked fast path against the plain path of writeToNode, on a real socket: the
 * same bytes on the wire (status line, headers, every frame its own chunk, the terminating
 * chunk), for streams of every kind. The plain path is made to run by a 1 ms wait before the
 * last frame, which the fast path does not take and which changes no byte.
 */
import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WireReply } from "./wire-plan.ts";
import { writeToNode } from "./wire-writer.ts";

let server: Server;
let port = 0;
let plan: WireReply;

beforeAll(async () => {
  server = createServer((_req, res) => {
    _req.resume();
    _req.on("end", () => void writeToNode(res, plan));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** The raw bytes of one exchange, the Date header's value blanked. */
async function exchange(reply: WireReply, request: string): Promise<string> {
  plan = reply;
  const socket = connect(port, "127.0.0.1");
  const chunks: Buffer[] = [];
  socket.on("data", (chunk) => chunks.push(chunk));
  socket.write(request);
  await new Promise((resolve) => {
    socket.on("end", resolve);
    socket.on("close", resolve);
    // Keep-alive: the terminating chunk (or the HEAD's empty line) ends the exchange.
    const done = () => {
      const text = Buffer.concat(chunks).toString("latin1");
      if (text.endsWith("0\r\n\r\n") || (request.startsWith("HEAD") && text.endsWith("\r\n\r\n")))
        resolve(undefined);
    };
    socket.on("data", done);
    setTimeout(resolve, 2000);
  });
  socket.destroy();
  return Buffer.concat(chunks)
    .toString("latin1")
    .replace(/Date: [^\r]*/, "Date: -");
}

function stream(frames: string[], status = 200, headers: [string, string][] = []): WireReply {
  return {
    status,
    headers: [["content-type", "text/event-stream"], ...headers],
    frames: frames.map((f) => ({ bytes: Buffer.from(f), delayMs: 0 })),
    headersDelayMs: 0,
    ending: "complete",
    transfer: "chunked",
    requestId: ["x-request-id", "req_0123"],
  };
}

/** The same plan, written by the plain path (a wait before the last frame). */
function plain(reply: WireReply): WireReply {
  const frames = reply.frames.map((f, i) =>
    i === reply.frames.length - 1 ? { ...f, delayMs: 1 } : f,
  );
  return { ...reply, frames };
}

const POST = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n";

describe("prechunked stream writes", () => {
  const cases: [string, WireReply, string][] = [
    [
      "200 events",
      stream(Array.from({ length: 200 }, (_, i) => `data: {"n":${i},"t":"ü 🙂"}\n\n`)),
      POST,
    ],
    ["an empty frame among them", stream(["data: a\n\n", "", "data: b\n\n"]), POST],
    [
      "a 429 with its own header",
      stream(["data: x\n\n", "data: y\n\n"], 429, [["retry-after", "1"]]),
      POST,
    ],
    ["HTTP/1.0 (no chunks: the plain path)", stream(["a", "b"]), POST.replace("1.1", "1.0")],
    ["HEAD (no body: the plain path)", stream(["a", "b"]), POST.replace("POST", "HEAD")],
  ];
  for (const [name, reply, request] of cases) {
    it(`puts the same bytes on the wire as the plain path: ${name}`, async () => {
      const fast = await exchange(reply, request);
      const slow = await exchange(plain(reply), request);
      expect(fast).toBe(slow);
      expect(fast).toMatch(/^HTTP\/1\.1 \d{3}/);
      expect(fast).toContain("x-request-id: req_0123");
    });
  }

  it("frames each event as its own chunk", async () => {
    const raw = await exchange(stream(["data: a\n\n", "data: bb\n\n"]), POST);
    expect(raw).toContain("Transfer-Encoding: chunked\r\n");
    expect(raw.endsWith("\r\n\r\n9\r\ndata: a\n\n\r\na\r\ndata: bb\n\n\r\n0\r\n\r\n")).toBe(true);
  });
});
