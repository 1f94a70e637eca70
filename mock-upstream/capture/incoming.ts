/**
 * What record-through and replay need from an incoming request, independent of the server:
 * the mock app builds it from Node's `IncomingMessage` (raw header order and case) and the
 * body bytes it has already read.
 */
import type { IncomingMessage } from "node:http";

export interface IncomingRequestInfo {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Query string without `?` ("" when none). */
  query: string;
  /** As received: order and case kept. */
  headers: [string, string][];
  body: Uint8Array;
  /** Aborted when the client goes away before the response is done. */
  signal?: AbortSignal;
}

export function incomingFromNode(
  req: IncomingMessage,
  body: Uint8Array,
  signal?: AbortSignal,
): IncomingRequestInfo {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    headers.push([req.rawHeaders[i] ?? "", req.rawHeaders[i + 1] ?? ""]);
  }
  return {
    method: req.method ?? "GET",
    path: q < 0 ? url : url.slice(0, q),
    query: q < 0 ? "" : url.slice(q + 1),
    headers,
    body,
    signal,
  };
}

/** Without a Node socket (Hono's `app.request` in tests): headers as the Fetch API keeps them. */
export function incomingFromRequest(request: Request, body: Uint8Array): IncomingRequestInfo {
  const url = new URL(request.url);
  return {
    method: request.method,
    path: url.pathname,
    query: url.search.replace(/^\?/, ""),
    headers: [...request.headers],
    body,
    signal: request.signal,
  };
}
