/**
 * Reading a request as it arrived: header pairs in wire order and case (Node's `rawHeaders`
 * when a socket is there, the Fetch headers otherwise), and the body's exact bytes up to the
 * body limit. Past the limit the rest is read and counted but not kept, so the connection
 * stays usable and the record says how big the body was.
 */
import type { IncomingMessage } from "node:http";
import { pairsFromRawHeaders, type RawRequest } from "./record.ts";

export const DEFAULT_BODY_LIMIT = 32 * 1024 * 1024;

class BodyCollector {
  readonly chunks: Buffer[] = [];
  bytes = 0;
  truncated = false;
  constructor(readonly limit: number) {}
  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    if (this.truncated) return;
    if (this.bytes > this.limit) {
      this.truncated = true;
      this.chunks.length = 0;
      return;
    }
    // Node's chunks are Buffers already; a web body's are plain Uint8Arrays.
    this.chunks.push(
      chunk instanceof Buffer ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length),
    );
  }
  body(): Buffer {
    return this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
  }
}

/** One Node request being read: its head, the body so far, and who gets it once. */
class NodeRequestRead {
  readonly collector: BodyCollector;
  #finished = false;
  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: [string, string][],
    readonly limit: number,
    readonly done: (raw: RawRequest) => void,
  ) {
    this.collector = new BodyCollector(limit);
  }

  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.done(withBody(this.method, this.url, this.headers, this.collector, this.limit));
  }
}

/**
 * Reads a Node request's body and hands the request to `done`, once. Event-driven rather
 * than `for await` or a promise: on a small request the async iterator cost more than the
 * rest of the work, and this way the listener answers in the tick the body ends.
 */
export function readNodeRequest(
  incoming: IncomingMessage,
  limit: number,
  done: (raw: RawRequest) => void,
): void {
  const method = incoming.method ?? "GET";
  const url = incoming.url ?? "/";
  const headers = pairsFromRawHeaders(incoming.rawHeaders);
  if (method === "GET" || method === "HEAD" || incoming.readableEnded) {
    done(withBody(method, url, headers, undefined, limit));
    return;
  }
  const read = new NodeRequestRead(method, url, headers, limit, done);
  incoming.on("data", (chunk: Buffer) => read.collector.push(chunk));
  incoming.on("end", () => read.finish());
  // The client went away mid-body: Node destroys the request with an `aborted` error,
  // which is emitted because a listener is here. Keep what arrived; the record shows the
  // byte count. An error after `end` finds the request already handed on. (`close`
  // would do as well, but every listener is paid for on every request.)
  incoming.on("error", () => read.finish());
}

async function readWebBody(request: Request, limit: number): Promise<BodyCollector> {
  const collector = new BodyCollector(limit);
  if (!request.body) return collector;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      collector.push(value);
    }
  } catch {
    // As above: a body cut short is recorded as far as it came.
  }
  return collector;
}

/**
 * Where a request comes from: Node's `IncomingMessage` when a socket is there (the listener's
 * own fast path, or @hono/node-server's bindings), a web `Request` under `app.request`.
 */
export type RequestSource = { incoming: IncomingMessage } | { request: Request };

export async function readRequest(source: RequestSource, limit: number): Promise<RawRequest> {
  if ("incoming" in source) {
    const incoming = source.incoming;
    return new Promise((resolve) => readNodeRequest(incoming, limit, resolve));
  }
  const request = source.request;
  const url = new URL(request.url);
  const headers = [...request.headers.entries()].map(([k, v]): [string, string] => [k, v]);
  const method = request.method;
  return withBody(
    method,
    url.pathname + url.search,
    headers,
    method !== "GET" && method !== "HEAD" ? await readWebBody(request, limit) : undefined,
    limit,
  );
}

function withBody(
  method: string,
  url: string,
  headers: [string, string][],
  body: BodyCollector | undefined,
  limit: number,
): RawRequest {
  const q = url.indexOf("?");
  const collector = body ?? new BodyCollector(limit);
  return {
    method,
    path: q < 0 ? url : url.slice(0, q),
    query: q < 0 ? "" : url.slice(q + 1),
    headers,
    body: collector.body(),
    bodyBytes: collector.bytes,
    bodyTruncated: collector.truncated,
  };
}
