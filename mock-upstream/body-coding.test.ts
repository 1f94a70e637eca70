/**
 * A request body sent compressed (`content-encoding`) is judged through its decoded JSON, as
 * the provider reads it, and recorded compressed and redacted; one that cannot be decoded is
 * refused with an error that says exactly why.
 */

import { brotliCompressSync, deflateSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockHandle, newNonce, startMock } from "./index.ts";
import { rawRequest } from "./test-helpers.ts";

let m: MockHandle;
beforeAll(async () => {
  m = await startMock();
});
afterAll(() => m.close());

const KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz987654";

function chat(nonce: string): string {
  return JSON.stringify({
    model: "gpt-4o-mini",
    messages: [{ role: "user", content: `${nonce} my key is ${KEY}` }],
  });
}

const CODINGS = {
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
} as const;

describe("a compressed JSON request body", () => {
  for (const [coding, compress] of Object.entries(CODINGS)) {
    it(`${coding}: answered as JSON, recorded compressed with the secret redacted`, async () => {
      const nonce = newNonce();
      const res = await rawRequest(m.url, {
        path: "/v1/chat/completions",
        body: compress(Buffer.from(chat(nonce))),
        headers: { "content-encoding": coding },
      });
      expect(res.status, res.body.toString()).toBe(200);
      const [record] = m.records({ nonce });
      expect(record).toMatchObject({ model: "gpt-4o-mini", stream: false, reply: { status: 200 } });
      expect(record?.reply.reason).toBeUndefined();
      expect(record?.request.body.encoding).toBe("base64");
      expect(JSON.stringify(record)).not.toContain(KEY);
    });
  }

  it("takes a reply staged for the nonce inside it", async () => {
    const nonce = newNonce();
    m.stage({ match: { nonce }, reply: { status: 429 } });
    const res = await rawRequest(m.url, {
      path: "/v1/chat/completions",
      body: gzipSync(Buffer.from(chat(nonce))),
      headers: { "content-encoding": "gzip" },
    });
    expect(res.status).toBe(429);
    const [record] = m.records({ nonce });
    expect(record?.reply.staged).toBe(true);
    const stored = gunzipSync(Buffer.from(record?.request.body.data ?? "", "base64")).toString();
    expect(stored).toContain(nonce);
    expect(stored).not.toContain(KEY);
  });

  it("that decodes to something not JSON is malformed-json with the parser's reason", async () => {
    const res = await rawRequest(m.url, {
      path: "/v1/chat/completions",
      body: gzipSync(Buffer.from('{"model": ')),
      headers: { "content-encoding": "gzip" },
    });
    expect(res.status).toBe(400);
    expect(m.records().at(-1)?.reply.reason).toBe("malformed-json");
    expect(res.body.toString()).not.toMatch(/compressed/);
  });
});

describe("a request body that cannot be decoded", () => {
  const cases: [string, string, Buffer, RegExp][] = [
    [
      "zstd",
      "zstd",
      Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]),
      /no zstd \(it came in Node 22\.15\)/,
    ],
    ["bytes that are not gzip", "gzip", Buffer.from('{"model":"m"}'), /does not decode as gzip: /],
    ["stacked codings", "gzip, br", gzipSync(Buffer.from("{}")), /stacks codings/],
    ["an unknown coding", "compress", Buffer.from("{}"), /"compress" is not one that is decoded/],
  ];
  for (const [name, coding, body, why] of cases) {
    it(`${name}: 400 malformed-json saying why`, async () => {
      const res = await rawRequest(m.url, {
        path: "/v1/chat/completions",
        body,
        headers: { "content-encoding": coding },
      });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body.toString()).error.message).toMatch(why);
      expect(m.records().at(-1)?.reply.reason).toBe("malformed-json");
    });
  }
});
