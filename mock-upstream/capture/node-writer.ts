/**
 * Writes a web `Response` from record-through or replay straight to Node's `ServerResponse`:
 * one `write()` per body chunk (one HTTP chunk each when chunked), and when the body stream
 * fails mid-way (the upstream reset, or a replayed reset) the socket is reset after the bytes
 * already written have left, the way the upstream dropped it. Returning the `Response` to
 * @hono/node-server instead works too, but that path logs every mid-body failure as a server
 * error.
 */
import type { ServerResponse } from "node:http";

export async function sendToNode(response: Response, outgoing: ServerResponse): Promise<void> {
  outgoing.socket?.setNoDelay(true);
  outgoing.statusCode = response.status;
  if (response.statusText) outgoing.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") outgoing.appendHeader(name, value);
  }
  for (const cookie of response.headers.getSetCookie()) outgoing.appendHeader("set-cookie", cookie);
  if (!response.body) {
    outgoing.end();
    return;
  }
  outgoing.flushHeaders();
  const reader = response.body.getReader();
  const onClose = () => {
    reader.cancel().catch(() => {});
  };
  outgoing.once("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (outgoing.destroyed) return;
      if (!outgoing.write(value)) await drained(outgoing);
    }
    outgoing.end();
  } catch {
    const socket = outgoing.socket;
    if (socket && !socket.destroyed) {
      await new Promise<void>((resolve) => socket.write("", () => resolve()));
      socket.resetAndDestroy();
    }
  } finally {
    outgoing.off("close", onClose);
  }
}

function drained(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off("drain", done);
      outgoing.off("close", done);
      resolve();
    };
    outgoing.on("drain", done);
    outgoing.on("close", done);
  });
}
