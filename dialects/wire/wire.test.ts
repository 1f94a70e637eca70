import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { byteLength, bytesBuffer, bytesOf, bytesSchema, textBytes } from "./bytes.ts";
import { wireExchangeSchema } from "./exchange.ts";
import { exchangeTiming, forwardedSide, type RecordedForward } from "./forwarded-side.ts";
import { headerPairsSchema, headerValue, lowerCasePairs } from "./headers.ts";
import { issueLines } from "./issues.ts";
import { wireReplySchema, wireRequestSchema } from "./messages.ts";

const issues = (
  schema: { safeParse(v: unknown): { success: boolean; error?: unknown } },
  v: unknown,
) => {
  const r = schema.safeParse(v);
  if (r.success) return [];
  return issueLines(r.error as Parameters<typeof issueLines>[0]);
};

describe("bytes: one rule", () => {
  it("keeps valid UTF-8 as its text and anything else as base64, byte for byte", () => {
    const text = Buffer.from('{"text":"café ☕"}');
    expect(bytesOf(text)).toEqual({ data: '{"text":"café ☕"}', encoding: "utf8" });
    const cut = text.subarray(0, text.length - 3); // inside ☕
    const gzip = gzipSync(text);
    for (const bytes of [cut, gzip, Buffer.from([0, 255, 128])]) {
      const b = bytesOf(bytes);
      expect(b.encoding).toBe("base64");
      expect(bytesBuffer(b).equals(bytes)).toBe(true);
      expect(byteLength(b)).toBe(bytes.length);
    }
    expect(bytesOf(new Uint8Array([104, 105]))).toEqual(textBytes("hi"));
    expect(byteLength(textBytes("☕"))).toBe(3);
  });

  it("refuses base64 that is not base64, and keys it does not know, naming the path", () => {
    expect(bytesSchema.safeParse({ data: "aGk=", encoding: "base64" }).success).toBe(true);
    expect(issues(bytesSchema, { data: "not base64!", encoding: "base64" })).toEqual([
      "data: expected base64 data (A-Z a-z 0-9 + / with = padding)",
    ]);
    expect(issues(bytesSchema, { data: "x", encoding: "latin1" })[0]).toMatch(/^encoding: /);
    expect(issues(bytesSchema, { data: "x", encoding: "utf8", size: 1 })[0]).toMatch(
      /^\(top level\): Unrecognized key: "size"/,
    );
  });
});

describe("headers", () => {
  it("are lower-case pairs in order, repeats kept", () => {
    const given: [string, string][] = [
      ["Content-Type", "a"],
      ["x-b", "1"],
      ["X-B", "2"],
    ];
    expect(lowerCasePairs(given)).toEqual([
      ["content-type", "a"],
      ["x-b", "1"],
      ["x-b", "2"],
    ]);
    const lower: [string, string][] = [["a", "1"]];
    expect(lowerCasePairs(lower)).toBe(lower);
    expect(headerValue(lowerCasePairs(given), "x-b")).toBe("1");
    expect(issues(headerPairsSchema, [["Host", "x"]])).toEqual([
      "[0][0]: expected a lower-case name",
    ]);
  });
});

describe("request and reply", () => {
  const request = { method: "POST", path: "/v1/x?a=1", headers: [], body: textBytes("{}") };

  it("a request has a path with its query and bytes for a body", () => {
    expect(wireRequestSchema.safeParse(request).success).toBe(true);
    expect(issues(wireRequestSchema, { ...request, path: "v1/x" })[0]).toMatch(/^path: /);
    expect(issues(wireRequestSchema, { ...request, body: "{}" })[0]).toMatch(/^body: /);
  });

  it("a reply's frames add up to its body and never go back in time", () => {
    const reply = { status: 200, headers: [], body: textBytes("abcdef"), headersAtMs: 5 };
    expect(wireReplySchema.safeParse(reply).success).toBe(true);
    const frames = [
      { atMs: 6, bytes: 2 },
      { atMs: 9, bytes: 4 },
    ];
    expect(wireReplySchema.safeParse({ ...reply, frames }).success).toBe(true);
    expect(issues(wireReplySchema, { ...reply, frames: [{ atMs: 6, bytes: 5 }] })).toEqual([
      "frames: expected the frames to add up to the body's 6 bytes, got 5",
    ]);
    expect(issues(wireReplySchema, { ...reply, frames: [{ atMs: 4, bytes: 6 }] })[0]).toMatch(
      /^frames\[0\]\.atMs: expected frame times not to go back/,
    );
    expect(issues(wireReplySchema, { ...reply, status: 0 })[0]).toMatch(/^status: /);
  });
});

describe("exchange", () => {
  const request = { method: "POST", path: "/v1/messages", headers: [], body: textBytes("{}") };
  const reply = { status: 200, headers: [], body: textBytes("{}") };

  it("a client side hangs together: dialect with request, response with request", () => {
    const base = { route: { backend: "openai-chat" }, mode: "non-stream" };
    expect(wireExchangeSchema.safeParse({ ...base, forwarded: [request] }).success).toBe(true);
    expect(
      wireExchangeSchema.safeParse({
        ...base,
        route: { client: "anthropic-messages", backend: "openai-chat" },
        clientRequest: request,
        clientResponse: reply,
      }).success,
    ).toBe(true);
    expect(issues(wireExchangeSchema, { ...base, clientRequest: request })).toEqual([
      "route.client: expected the client dialect the client request speaks",
    ]);
    expect(issues(wireExchangeSchema, { ...base, clientResponse: reply })).toEqual([
      "clientRequest: expected the client request the client response answers",
    ]);
    expect(
      issues(wireExchangeSchema, {
        ...base,
        context: { fallback: { targets: ["a:1"], on: [0] } },
      })[0],
    ).toMatch(/^context\.fallback\.on/);
  });
});

describe("forwarded side", () => {
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
  const forward = (body: string, ms: number, status: number, more: [string, string][] = []) =>
    ({
      receivedAt: at(ms),
      request: { method: "POST", path: "/v1/chat/completions", headers: [], body: textBytes(body) },
      reply: { status, headers: more, body: textBytes(`{"status":${status}}`) },
    }) satisfies RecordedForward;

  it("answers with the reply to the last readable request, and times every arrival", () => {
    const side = forwardedSide([
      forward('{"a":1}', 0, 503, [["retry-after", "1"]]),
      forward('{"a":1}', 1200, 200),
      forward("not json", 1300, 500),
    ]);
    expect(side.forwarded).toHaveLength(3);
    expect(side.upstreamReply?.body.data).toBe('{"status":200}');
    expect(side.arrivals).toEqual([
      { atMs: 0, status: 503, retryAfter: "1" },
      { atMs: 1200, status: 200 },
      { atMs: 1300, status: 500 },
    ]);
    expect(exchangeTiming(side.arrivals, 1500)).toEqual({
      forwarded: side.arrivals,
      clientTotalMs: 1500,
    });
  });

  it("without arrival times keeps only the client's wait; without bytes no upstream reply", () => {
    const { receivedAt: _, ...untimed } = forward("{}", 0, 200);
    const side = forwardedSide([{ ...untimed, reply: { status: 200, headers: [] } }]);
    expect(side.arrivals).toBeUndefined();
    expect(side.upstreamReply).toBeUndefined();
    expect(exchangeTiming(side.arrivals, 7)).toEqual({ forwarded: [], clientTotalMs: 7 });
    expect(exchangeTiming(side.arrivals, undefined)).toBeUndefined();
  });
});
