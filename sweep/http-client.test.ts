import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendRequest } from "./http-client.ts";

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/gzip") {
      res.writeHead(400, { "Content-Encoding": "gzip", "X-Case": "Kept" });
      res.end(gzipSync('{"error":"bad"}'));
    } else if (req.url === "/chunks") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: 1\n\n");
      setTimeout(() => res.end("data: 2\n\n"), 30);
    } else if (req.url === "/reset") {
      res.writeHead(200);
      res.write("partial");
      setTimeout(() => req.socket.destroy(), 10);
    } else if (req.url === "/echo") {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => res.end(JSON.stringify({ body, auth: req.headers.authorization })));
    }
    // "/hang" never answers.
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("sendRequest", () => {
  it("keeps gzip bytes undecoded and header case as received", async () => {
    const res = await sendRequest({ url: `${base}/gzip`, headers: {}, timeoutMs: 2000 });
    expect(res.status).toBe(400);
    expect(res.body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(res.headers).toContainEqual(["X-Case", "Kept"]);
  });

  it("records each chunk's arrival", async () => {
    const res = await sendRequest({ url: `${base}/chunks`, headers: {}, timeoutMs: 2000 });
    expect(res.body.toString()).toBe("data: 1\n\ndata: 2\n\n");
    expect(res.chunks.length).toBe(2);
    expect(res.timings.firstByteMs).toBeDefined();
  });

  it("sends the body and headers", async () => {
    const res = await sendRequest({
      url: `${base}/echo`,
      headers: { authorization: "Bearer x", "content-type": "application/json" },
      body: '{"a":1}',
      timeoutMs: 2000,
    });
    expect(JSON.parse(res.body.toString())).toEqual({ body: '{"a":1}', auth: "Bearer x" });
  });

  it("reports a reset with the partial body", async () => {
    const res = await sendRequest({ url: `${base}/reset`, headers: {}, timeoutMs: 2000 });
    expect(res.transportError).toBeDefined();
    expect(res.body.toString()).toBe("partial");
  });

  it("gives up at the caller's deadline", async () => {
    const res = await sendRequest({ url: `${base}/hang`, headers: {}, timeoutMs: 100 });
    expect(res.transportError).toMatch(/timeout after 100 ms/);
    expect(res.status).toBe(0);
  });

  it("reports a refused connection", async () => {
    const res = await sendRequest({ url: "http://127.0.0.1:1/", headers: {}, timeoutMs: 2000 });
    expect(res.transportError).toMatch(/ECONNREFUSED/);
  });
});
