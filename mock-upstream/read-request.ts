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
    this.chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
  }
  body(): Buffer {
    return this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
  }
}

/** Event-driven rather than `for await`: the async iterator costs more than the rest of a small request. */
function readNodeBody(incoming: IncomingMessage, limit: number): Promise<BodyCollector> {
  const collector = new BodyCollector(limit);
  if (incoming.readableEnded) return Promise.resolve(collector);
  return new Promise((resolve) => {
    incoming.on("data", (chunk: Buffer) => collector.push(chunk));
    incoming.once("end", () => resolve(collector));
    // The client went away mid-body: keep what arrived; the record shows the byte count.
    incoming.once("error", () => resolve(collector));
    incoming.once("aborted", () => resolve(collector));
  });
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
    const method = incoming.method ?? "GET";
    return withBody(
      method,
      incoming.url ?? "/",
      pairsFromRawHeaders(incoming.rawHeaders),
      method !== "GET" && method !== "HEAD" ? await readNodeBody(incoming, limit) : undefined,
      limit,
    );
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
