/**
 * Test support for capture and replay: a local `node:http` server standing in for the provider,
 * a front server serving a handler the way the mock app does (Hono on @hono/node-server), and
 * a raw `node:net` client that reports every socket read and the HTTP chunks inside them, so a
 * test can assert the exact bytes and write boundaries a client saw.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { type HttpBindings, serve } from "@hono/node-server";
import { Hono } from "hono";
import { type IncomingRequestInfo, incomingFromNode } from "./incoming.ts";
import { recordThroughRoute } from "./mock-wiring.ts";

export interface SeenRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body: Buffer;
}

export interface LocalServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

async function shut(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The stand-in provider; `seen` collects every request it got, body included. */
export async function startUpstream(
  respond: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void | Promise<void>,
): Promise<LocalServer & { seen: SeenRequest[] }> {
  const seen: SeenRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers: [string, string][] = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      headers.push([req.rawHeaders[i] ?? "", req.rawHeaders[i + 1] ?? ""]);
    }
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers, body });
    await respond(req, res, body);
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, seen, close: () => shut(server) };
}

/** How the front puts a handler's Response on the wire. */
export const WRITERS = ["node", "response"] as const;
export type Writer = (typeof WRITERS)[number];

/**
 * A server answering every request with `handler`, built the way the mock app would: Hono on
 * @hono/node-server, the Response written by `recordThroughRoute` (`sendToNode`) or returned
 * to the server.
 */
export async function startFront(
  handler: (incoming: IncomingRequestInfo) => Promise<Response>,
  writer: Writer = "node",
): Promise<LocalServer> {
  const app = new Hono<{ Bindings: HttpBindings }>();
  if (writer === "node") app.all("*", recordThroughRoute(handler));
  else {
    app.all("*", async (c) => {
      const body = new Uint8Array(await c.req.arrayBuffer());
      return handler(incomingFromNode(c.env.incoming, body, c.req.raw.signal));
    });
  }
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as Server;
  if (!server.listening) await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, close: () => shut(server) };
}

export interface RawChunk {
  payload: Buffer;
  /** Index of the socket read in which the chunk's last byte arrived. */
  read: number;
  /** Milliseconds since the request was sent when that read arrived. */
  at: number;
}

export interface RawExchange {
  status: number;
  /** Header lines as sent, in order. */
  headers: [string, string][];
  /** The body as it came (de-chunked when chunked). */
  body: Buffer;
  /** For chunked bodies: each HTTP chunk with the read it completed in. */
  chunks: RawChunk[];
  /** Saw the terminating zero-length chunk (chunked) or the full content-length. */
  complete: boolean;
  /** The socket ended with an error (e.g. ECONNRESET) rather than a clean close. */
  socketError?: string;
}

/**
 * One HTTP/1.1 request over a raw socket (`Connection: close`), read to the socket's end.
 * Nothing is decoded but the chunked framing: gzip stays gzip. `onData` sees every read as
 * it lands (a test's upstream can wait for the client to have a frame before the next).
 */
export async function rawRequest(
  port: number,
  request: { method?: string; path: string; headers?: [string, string][]; body?: string | Buffer },
  onData?: (bytes: Buffer) => void,
): Promise<RawExchange> {
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body);
  const lines = [`${request.method ?? "POST"} ${request.path} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
  for (const [name, value] of request.headers ?? []) lines.push(`${name}: ${value}`);
  lines.push(`Content-Length: ${body.length}`, "Connection: close", "", "");
  const socket = connect(port, "127.0.0.1");
  socket.setNoDelay(true);
  const reads: { bytes: Buffer; at: number }[] = [];
  const t0 = performance.now();
  socket.write(Buffer.concat([Buffer.from(lines.join("\r\n")), body]));
  let socketError: string | undefined;
  await new Promise<void>((resolve) => {
    socket.on("data", (bytes: Buffer) => {
      reads.push({ bytes, at: performance.now() - t0 });
      onData?.(bytes);
    });
    socket.on("error", (error) => {
      socketError = (error as NodeJS.ErrnoException).code ?? error.message;
    });
    socket.on("close", () => resolve());
  });
  return { ...parseResponse(reads), socketError };
}

function parseResponse(reads: { bytes: Buffer; at: number }[]): Omit<RawExchange, "socketError"> {
  const all = Buffer.concat(reads.map((r) => r.bytes));
  // Map each byte offset to the read it arrived in.
  const ends: number[] = [];
  let total = 0;
  for (const r of reads) {
    total += r.bytes.length;
    ends.push(total);
  }
  const readAt = (offset: number) => ends.findIndex((end) => offset < end);
  const headEnd = all.indexOf("\r\n\r\n");
  if (headEnd < 0)
    return { status: 0, headers: [], body: Buffer.alloc(0), chunks: [], complete: false };
  const [statusLine = "", ...headerLines] = all
    .subarray(0, headEnd)
    .toString("latin1")
    .split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers = headerLines.map((line): [string, string] => {
    const colon = line.indexOf(":");
    return [line.slice(0, colon), line.slice(colon + 1).trim()];
  });
  const header = (name: string) => headers.find(([k]) => k.toLowerCase() === name)?.[1];
  let offset = headEnd + 4;
  if (header("transfer-encoding")?.toLowerCase() !== "chunked") {
    const rest = all.subarray(offset);
    const length = header("content-length");
    return {
      status,
      headers,
      body: rest,
      chunks: [],
      complete: length === undefined || rest.length === Number(length),
    };
  }
  const chunks: RawChunk[] = [];
  let complete = false;
  for (;;) {
    const lineEnd = all.indexOf("\r\n", offset);
    if (lineEnd < 0) break;
    const size = Number.parseInt(all.subarray(offset, lineEnd).toString("latin1"), 16);
    if (!Number.isFinite(size)) break;
    if (size === 0) {
      complete = true;
      break;
    }
    const start = lineEnd + 2;
    if (start + size + 2 > all.length) break;
    const read = readAt(start + size - 1);
    chunks.push({ payload: all.subarray(start, start + size), read, at: reads[read]?.at ?? 0 });
    offset = start + size + 2;
  }
  return { status, headers, body: Buffer.concat(chunks.map((c) => c.payload)), chunks, complete };
}

const E_ACUTE = Buffer.from("\u00e9");

/** SSE frames as a provider might cut them: inside a UTF-8 character (é = C3 A9) and inside a
 * `data:` line. */
export const SSE_FRAMES: readonly Buffer[] = [
  Buffer.concat([
    Buffer.from('data: {"choices":[{"delta":{"content":"caf'),
    E_ACUTE.subarray(0, 1),
  ]),
  Buffer.concat([E_ACUTE.subarray(1), Buffer.from('"}}]}\n\n')]),
  Buffer.from("data: [DO"),
  Buffer.from("NE]\n\n"),
];

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
