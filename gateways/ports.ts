/**
 * Ports and readiness. Every gateway binds 127.0.0.1 on a port we pick: listen on port 0,
 * read the port, close. The tiny race (someone else takes it before the gateway binds) is
 * caught by readiness failing with the gateway's own "address in use" in the log tail.
 */
import { request } from "node:http";
import { createServer } from "node:net";

export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("no port assigned"))));
    });
  });
}

/** One GET; resolves to the HTTP status, or undefined when nothing answered. */
export function probeHttp(url: string, timeoutMs = 1000): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = request(url, { method: "GET", timeout: timeoutMs, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(undefined));
    req.end();
  });
}

export interface WaitReadyOptions {
  url: string;
  deadlineMs: number;
  /** Stop waiting early: the process died. Returns a reason, or undefined while alive. */
  gaveUp?: () => string | undefined;
  signal?: AbortSignal;
  intervalMs?: number;
}

export type WaitReadyResult =
  | { ready: true; status: number; afterMs: number }
  | { ready: false; reason: string; afterMs: number };

/** Poll until any HTTP status comes back (a 404 on `/` is still a live server). */
export async function waitForHttp(options: WaitReadyOptions): Promise<WaitReadyResult> {
  const started = Date.now();
  const interval = options.intervalMs ?? 100;
  for (;;) {
    const afterMs = Date.now() - started;
    if (options.signal?.aborted) return { ready: false, reason: "interrupted", afterMs };
    const died = options.gaveUp?.();
    if (died) return { ready: false, reason: died, afterMs };
    const status = await probeHttp(options.url, Math.min(1000, options.deadlineMs));
    if (status !== undefined) return { ready: true, status, afterMs: Date.now() - started };
    if (Date.now() - started >= options.deadlineMs) {
      return {
        ready: false,
        reason: `no HTTP answer on ${options.url} within ${options.deadlineMs} ms`,
        afterMs,
      };
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}
