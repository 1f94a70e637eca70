/**
 * Helpers shared by the mock's tests: a raw `node:net` HTTP/1.1 client that keeps every read
 * as it came and decodes chunked framing into the writes the server made, and a JSON POST.
 */
import { connect } from "node:net";
import { bodyFacts, type RawRequest } from "./record.ts";
import { replyBytes } from "./reply-bytes.ts";
import { routeFacts } from "./request-facts.ts";
import type { TrafficRecordInput } from "./traffic-record.ts";

export interface RawExchange {
  /** The status line and headers, as text. */
  head: string;
  status: number;
  headers: Map<string, string>;
  /** The body bytes after chunked decoding (or as sent with content-length). */
  body: Buffer;
  /** With chunked transfer: one entry per HTTP chunk, i.e. per server write. */
  chunks: Buffer[];
  /** Whether the terminating zero-size chunk arrived. */
  terminated: boolean;
  /** How the connection ended: the server closed it, reset it, or the reader gave up. */
  end: "closed" | "reset" | "timeout" | "complete";
  /** Milliseconds from the request being sent to each chunk's arrival. */
  chunkTimes: number[];
}

/**
 * Send one request on a fresh connection (`connection: close`) and read until the server
 * ends it, resets it, or `timeoutMs` passes.
 */
export function rawRequest(
  url: string,
  init: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
  timeoutMs = 3000,
): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  const body = init.body === undefined ? Buffer.alloc(0) : Buffer.from(init.body);
  const headers: Record<string, string> = {
    host: `${hostname}:${port}`,
    connection: "close",
    ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    ...init.headers,
    ...(init.body === undefined ? {} : { "content-length": String(body.length) }),
  };
  const head = `${init.method ?? "POST"} ${init.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`;
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const started = Date.now();
    const reads: { bytes: Buffer; at: number }[] = [];
    let end: RawExchange["end"] = "closed";
    const timer = setTimeout(() => {
      end = "timeout";
      socket.destroy();
    }, timeoutMs);
    socket.on("connect", () => socket.write(Buffer.concat([Buffer.from(head), body])));
    socket.on("data", (d: Buffer) => reads.push({ bytes: d, at: Date.now() - started }));
    socket.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "ECONNRESET") end = "reset";
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(parseResponse(reads, end));
    });
  });
}

function parseResponse(
  reads: { bytes: Buffer; at: number }[],
  end: RawExchange["end"],
): RawExchange {
  const all = Buffer.concat(reads.map((r) => r.bytes));
  const split = all.indexOf("\r\n\r\n");
  const headText = split < 0 ? all.toString("latin1") : all.subarray(0, split).toString("latin1");
  const [statusLine = "", ...lines] = headText.split("\r\n");
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  const status = Number(statusLine.split(" ")[1] ?? 0);
  const rest = split < 0 ? Buffer.alloc(0) : all.subarray(split + 4);
  const bodyStart = split + 4;
  const arrival = (offset: number) => {
    let seen = 0;
    for (const r of reads) {
      seen += r.bytes.length;
      if (offset < seen) return r.at;
    }
    return reads.at(-1)?.at ?? 0;
  };
  if (headers.get("transfer-encoding") !== "chunked") {
    return {
      head: headText,
      status,
      headers,
      body: rest,
      chunks: [rest],
      terminated: true,
      end,
      chunkTimes: [],
    };
  }
  const chunks: Buffer[] = [];
  const chunkTimes: number[] = [];
  let at = 0;
  let terminated = false;
  while (at < rest.length) {
    const lineEnd = rest.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(rest.subarray(at, lineEnd).toString("latin1"), 16);
    if (Number.isNaN(size)) break;
    if (size === 0) {
      terminated = true;
      break;
    }
    const data = rest.subarray(lineEnd + 2, lineEnd + 2 + size);
    chunks.push(data);
    chunkTimes.push(arrival(bodyStart + lineEnd + 2));
    at = lineEnd + 2 + size + 2;
  }
  return {
    head: headText,
    status,
    headers,
    body: Buffer.concat(chunks),
    chunks,
    terminated,
    end: terminated && end === "closed" ? "complete" : end,
    chunkTimes,
  };
}

export async function postJson(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

// biome-ignore lint/suspicious/noExplicitAny: tests walk arbitrary provider JSON by property.
export type AnyJson = any;

export async function readJson(res: Response): Promise<AnyJson> {
  return res.json();
}

/**
 * A traffic record's input as `handleTraffic` builds it: `body` sent to `path` with
 * `headers` and a `?key=` credential, answered 200 by a staged reply of `replyBody`.
 */
export function trafficInput(
  body: string | Buffer,
  replyBody: Buffer,
  path: string,
  headers: [string, string][],
): TrafficRecordInput {
  const bytes = Buffer.from(body);
  const raw: RawRequest = {
    method: "POST",
    path,
    query: "key=AIzaSyA-1234567890abcdefghijklmnopqrs&x=1",
    headers,
    body: bytes,
    bodyBytes: bytes.length,
    bodyTruncated: false,
  };
  return {
    seq: 7,
    receivedAt: "2026-11-30T05:00:00.000Z",
    listener: "gw",
    raw,
    route: routeFacts(path, "", headers),
    facts: bodyFacts(bytes),
    model: "gpt-4o-mini",
    stream: false,
    reply: { status: 200, staged: true, stagedId: "stage-2" },
    replyHeaders: [["content-type", "application/json"]],
    replyBytes: replyBytes([{ bytes: replyBody, delayMs: 0 }]),
  };
}
