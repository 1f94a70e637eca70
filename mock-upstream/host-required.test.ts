/**
 * Host and the HTTP version: an HTTP/1.0 request without Host is served (the control API's
 * too, as the DNS-rebinding guard allows: no browser sends one), an HTTP/1.1 request without
 * Host is answered 400 with a body, and recorded when it is traffic.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockHandle, startMock } from "./index.ts";

let m: MockHandle;
beforeAll(async () => {
  m = await startMock();
});
afterAll(() => m.close());

const BODY = '{"model":"m","messages":[]}';

/** One raw request on its own connection; the answer's status and body. */
function send(raw: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const socket = connect(m.port, "127.0.0.1");
    // An answer that never ends its body (an empty chunked 400) fails the test in 3 s.
    socket.setTimeout(3000, () => socket.destroy());
    let got = "";
    socket.on("data", (d: Buffer) => {
      got += d.toString();
      const end = got.indexOf("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(got)?.[1];
      if (end >= 0 && length !== undefined && got.length >= end + 4 + Number(length)) {
        socket.destroy();
      }
    });
    socket.on("close", () => {
      const end = got.indexOf("\r\n\r\n");
      resolve({ status: Number(got.split(" ")[1]), body: got.slice(end + 4) });
    });
    socket.write(raw);
  });
}

describe("a control request without Host", () => {
  it("over HTTP/1.0 is served, as the docs say", async () => {
    const reset = await send("POST /__gatecheck/reset HTTP/1.0\r\n\r\n");
    expect(reset).toEqual({ status: 200, body: '{"ok":true}' });
    const health = await send("GET /__gatecheck/health HTTP/1.0\r\n\r\n");
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ ok: true });
  });

  it("over HTTP/1.1 is a 400 with a JSON body that says why", async () => {
    const res = await send("GET /__gatecheck/health HTTP/1.1\r\n\r\n");
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error).toMatch(/must carry a Host header \(RFC 9112/);
  });

  it("with a Host no URL can hold is a 400 with a JSON body", async () => {
    const res = await send("GET /__gatecheck/health HTTP/1.1\r\nHost: bad host\r\n\r\n");
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error).toMatch(/^gatecheck mock: /);
  });
});

describe("traffic without Host", () => {
  it("over HTTP/1.1 is recorded and answered 400 in the dialect's error shape", async () => {
    m.reset();
    const res = await send(
      `POST /v1/chat/completions HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\nConnection: close\r\n\r\n${BODY}`,
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.message).toMatch(/must carry a Host header/);
    const [record] = m.records();
    expect(record?.reply).toMatchObject({ status: 400, reason: "missing-host" });
    expect(record?.request.body.data).toBe(BODY);
  });

  it("over HTTP/1.0 is answered and recorded as any request", async () => {
    m.reset();
    const res = await send(
      `POST /v1/chat/completions HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`,
    );
    expect(res.status).toBe(200);
    expect(m.records()[0]?.reply.reason).toBeUndefined();
  });
});
