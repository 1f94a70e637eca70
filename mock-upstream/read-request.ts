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

export async function readRequest(
  request: Request,
  incoming: IncomingMessage | undefined,
  limit: number,
): Promise<RawRequest> {
  const url = incoming?.url ?? new URL(request.url).pathname + new URL(request.url).search;
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? "" : url.slice(q + 1);
  const headers = incoming
    ? pairsFromRawHeaders(incoming.rawHeaders)
    : [...request.headers.entries()].map(([k, v]): [string, string] => [k, v]);
  const method = incoming?.method ?? request.method;
  const hasBody = method !== "GET" && method !== "HEAD";
  const collector = hasBody
    ? incoming
      ? await readNodeBody(incoming, limit)
      : await readWebBody(request, limit)
    : new BodyCollector(limit);
  return {
    method,
    path,
    query,
    headers,
    body: collector.body(),
    bodyBytes: collector.bytes,
    bodyTruncated: collector.truncated,
  };
}
