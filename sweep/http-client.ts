/**
 * The probe's HTTP client: sends one request and keeps the exact response the caller got
 * (status, headers as sent, raw body bytes, and when each chunk arrived). It uses node:http
 * rather than fetch because fetch decompresses and re-frames: a gateway that forwards
 * `content-encoding: gzip` must show up as the garbage its users see.
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";

export interface ClientRequest {
  method?: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Abort after this many ms in total (the caller's deadline). */
  timeoutMs: number;
}

export interface ClientResponse {
  status: number;
  /** Headers as received: order and case kept. */
  headers: [string, string][];
  /** Raw body bytes exactly as received. */
  body: Buffer;
  /** Milliseconds from send to the arrival of each chunk, and the chunk sizes. */
  chunks: { atMs: number; bytes: number }[];
  timings: { firstByteMs?: number; totalMs: number };
  /** Set when the transport failed: reset, timeout, refused. The partial body is kept. */
  transportError?: string;
}

const TIMEOUT_PREFIX = "timeout after ";

/** The client's deadline passed before the gateway sent anything: no status, not one byte. */
export function unansweredByDeadline(res: ClientResponse): boolean {
  return (
    res.status === 0 &&
    res.timings.firstByteMs === undefined &&
    res.transportError?.startsWith(TIMEOUT_PREFIX) === true
  );
}

export function sendRequest(req: ClientRequest): Promise<ClientResponse> {
  const started = performance.now();
  const url = new URL(req.url);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const arrivals: { atMs: number; bytes: number }[] = [];
    let status = 0;
    let headers: [string, string][] = [];
    let firstByteMs: number | undefined;
    let settled = false;
    const finish = (transportError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        status,
        headers,
        body: Buffer.concat(chunks),
        chunks: arrivals,
        timings: { firstByteMs, totalMs: performance.now() - started },
        ...(transportError ? { transportError } : {}),
      });
    };
    const outgoing = send(
      url,
      {
        method: req.method ?? "POST",
        headers: {
          ...req.headers,
          ...(req.body !== undefined
            ? { "content-length": String(Buffer.byteLength(req.body)) }
            : {}),
        },
        agent: false,
      },
      (res) => {
        status = res.statusCode ?? 0;
        headers = pairs(res.rawHeaders);
        res.on("data", (chunk: Buffer) => {
          const at = performance.now() - started;
          firstByteMs ??= at;
          chunks.push(chunk);
          arrivals.push({ atMs: Math.round(at * 10) / 10, bytes: chunk.length });
        });
        res.on("end", () => finish());
        res.on("error", (error) => finish(describe(error)));
        res.on("aborted", () => finish("response aborted mid-body"));
      },
    );
    const timer = setTimeout(() => {
      finish(`${TIMEOUT_PREFIX}${req.timeoutMs} ms`);
      outgoing.destroy();
    }, req.timeoutMs);
    outgoing.on("error", (error) => finish(describe(error)));
    if (req.body !== undefined) outgoing.write(req.body);
    outgoing.end();
  });
}

function pairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i] ?? "", raw[i + 1] ?? ""]);
  return out;
}

function describe(error: Error & { code?: string }): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
