/**
 * Puts a wire plan on the wire. Under @hono/node-server the plan is written straight to the
 * Node `ServerResponse`, one `write()` per frame, so with chunked transfer each frame is one
 * HTTP chunk a raw client can see, and resets and hangs act on the real socket. Without a
 * socket (Hono's `app.request` in tests) the same plan becomes a web `Response` whose body
 * stream yields the same frames; a reset becomes a stream error there.
 */
import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { writePrechunked } from "./prechunked-writer.ts";
import { bodyLength, sentHeaders, type WireReply } from "./wire-plan.ts";

/** Measured: 0-1 ms loses the reset about one time in ten on Linux; 5 ms and more never did. */
const RESET_GRACE_MS = 25;

/** Headers the writer sets itself from the plan; a plan's own value for them is kept. */
function hasHeader(reply: WireReply, name: string): boolean {
  return reply.headers.some(([k]) => k.toLowerCase() === name);
}

/**
 * A one-write plan's headers as `writeHead` takes them: a flat name, value list in the
 * plan's order, then `content-length` unless the plan has its own. That is exactly what
 * `appendHeader` per header and `setHeader("content-length")` put on the wire, without
 * building Node's header map first. Kept per plan's header list: a cached plan
 * (reply-engine.ts) answers many requests, and the copy of it that carries each reply's own
 * request id (request-id.ts) shares its headers, so the list is made once, not per reply.
 */
const headerLists = new WeakMap<readonly (readonly [string, string])[], HeaderList>();

interface HeaderList {
  declaredLength: number;
  list: string[];
}

function headerList(reply: WireReply, declaredLength: number): string[] {
  let kept = headerLists.get(reply.headers);
  if (kept?.declaredLength !== declaredLength) {
    const list = reply.headers.flat();
    if (!hasHeader(reply, "content-length")) list.push("content-length", String(declaredLength));
    kept = { declaredLength, list };
    headerLists.set(reply.headers, kept);
  }
  const id = reply.requestId;
  if (!id) return kept.list;
  const out = kept.list.slice();
  out.push(id[0], id[1]);
  return out;
}

/** A plan written in one packet at once: no waits, one frame, content-length, complete. */
function isOneWrite(reply: WireReply): boolean {
  const first = reply.frames[0];
  return (
    reply.before === undefined &&
    reply.headersDelayMs <= 0 &&
    reply.ending === "complete" &&
    reply.transfer === "content-length" &&
    reply.frames.length <= 1 &&
    !first?.raw &&
    !(first?.delayMs ?? 0)
  );
}

/**
 * The common case, done without a promise: a one-write plan goes out now, status, headers
 * and the whole body in one write. False when the plan needs `writeToNode`.
 */
export function writeAtOnce(res: ServerResponse, reply: WireReply): boolean {
  if (!isOneWrite(reply)) return false;
  res.socket?.setNoDelay(true);
  if (res.destroyed) return true;
  res.writeHead(reply.status, headerList(reply, reply.declaredLength ?? bodyLength(reply.frames)));
  res.end(reply.frames[0]?.bytes);
  return true;
}

/**
 * Write the plan to a Node response. Resolves when the plan is done (for `hang`: when the
 * headers and frames are out; the connection is left open for the server to close).
 */
export async function writeToNode(res: ServerResponse, reply: WireReply): Promise<void> {
  if (writeAtOnce(res, reply)) return;
  const declaredLength = reply.declaredLength ?? bodyLength(reply.frames);
  const socket = res.socket;
  socket?.setNoDelay(true);
  if (reply.before === "reset") {
    socket?.resetAndDestroy();
    return;
  }
  if (reply.before === "hang") return;
  if (reply.headersDelayMs > 0) await sleep(reply.headersDelayMs);
  if (res.destroyed) return;
  if (writePrechunked(res, reply, sentHeaders(reply))) return;
  const first = reply.frames[0];
  const single = reply.ending === "complete" && reply.frames.length <= 1 && !first?.raw;
  if (single && reply.transfer === "content-length" && !(first?.delayMs ?? 0)) {
    // One packet after a wait for the headers.
    res.writeHead(reply.status, headerList(reply, declaredLength));
    res.end(first?.bytes);
    return;
  }
  res.statusCode = reply.status;
  for (const [name, value] of sentHeaders(reply)) res.appendHeader(name, value);
  if (reply.transfer === "content-length" && !hasHeader(reply, "content-length")) {
    res.setHeader("content-length", declaredLength);
  }
  // Headers go out at once when the first byte of the body waits (a slow first token).
  if (!first || first.delayMs > 0 || first.raw) res.flushHeaders();
  // Frames due together are corked into one syscall; each is still its own HTTP chunk.
  let corked = false;
  for (const frame of reply.frames) {
    if (frame.delayMs > 0) {
      if (corked) socket?.uncork();
      corked = false;
      await sleep(frame.delayMs);
    }
    if (res.destroyed) return;
    if (!corked && socket) {
      socket.cork();
      corked = true;
    }
    if (frame.raw) socket?.write(frame.bytes);
    else res.write(frame.bytes);
  }
  if (corked) socket?.uncork();
  switch (reply.ending) {
    case "complete":
      res.end();
      return;
    case "close":
      // End the socket cleanly without the terminating chunk (or short of content-length).
      socket?.end();
      return;
    case "reset":
      // Let the frames reach the client and be read first: an RST that lands right behind
      // them makes the client's kernel drop the unread bytes, and the reset looks like EOF.
      if (socket && !socket.destroyed) {
        await new Promise<void>((resolve) => socket.write("", () => resolve()));
        await sleep(RESET_GRACE_MS);
        if (!socket.destroyed) socket.resetAndDestroy();
      }
      return;
    case "hang":
      return;
  }
}

/** The plan as a web Response (for `app.request`, where there is no socket). */
export async function toWebResponse(reply: WireReply): Promise<Response> {
  const declaredLength = reply.declaredLength ?? bodyLength(reply.frames);
  if (reply.before === "reset") throw new TypeError("connection reset by mock before headers");
  if (reply.before === "hang") await new Promise(() => {});
  if (reply.headersDelayMs > 0) await sleep(reply.headersDelayMs);
  const headers = new Headers();
  for (const [name, value] of sentHeaders(reply)) headers.append(name, value);
  if (reply.transfer === "content-length" && !headers.has("content-length")) {
    headers.set("content-length", String(declaredLength));
  }
  const frames = [...reply.frames];
  const nullBody = reply.status === 204 || reply.status === 304 || reply.status < 200;
  if (nullBody) return new Response(null, { status: reply.status, headers });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const frame = frames.shift();
      if (frame) {
        if (frame.delayMs > 0) await sleep(frame.delayMs);
        controller.enqueue(new Uint8Array(frame.bytes));
        return;
      }
      if (reply.ending === "reset") controller.error(new Error("connection reset by mock"));
      else if (reply.ending !== "hang") controller.close();
      else await new Promise(() => {});
    },
  });
  return new Response(body, { status: reply.status, headers });
}
