/**
 * exchangeFromWire builds what the lens judges from stored attempts; `rescore` runs it for
 * every attempt, so it takes shortcuts (a UTF-8 reply body kept as it is, header pairs shared
 * when already lower-case, the client body's text serialized on demand). Each shortcut must
 * give what the bytes' way gives.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  bodyText,
  exchangeFromWire,
  type ForwardedRecord,
  type WireSides,
} from "./exchange-from-wire.ts";

function sides(reply: ForwardedRecord["reply"], headers: [string, string][] = []): WireSides {
  return {
    client: "openai-chat",
    backend: "anthropic-messages",
    mode: "non-stream",
    clientRequest: {
      method: "POST",
      path: "/v1/chat/completions",
      headers: [["Content-Type", "application/json"]],
      body: { model: "m", messages: [{ role: "user", content: "hi" }] },
    },
    forwarded: [
      {
        method: "POST",
        path: "/v1/messages",
        query: "",
        headers,
        rawBody: '{"model":"m"}',
        bodyEncoding: "utf8",
        json: { model: "m" },
        ...(reply ? { reply } : {}),
      },
    ],
    secrets: [],
  };
}

/** What the reply body was before the shortcut: always through the bytes. */
function byBytes(body: string, encoding: "utf8" | "base64", headers: [string, string][]) {
  return bodyText(Buffer.from(body, encoding), headers);
}

const GZIP = [["Content-Encoding", "gzip"]] as [string, string][];

const BODIES: [string, string, "utf8" | "base64", [string, string][]][] = [
  ["plain JSON", '{"id":"msg_1","content":[]}', "utf8", []],
  ["non-ASCII and astral", '{"text":"é ü 中文 😀"}', "utf8", []],
  ["a byte-order mark", '\ufeff{"a":1}', "utf8", []],
  ["a lone high surrogate", '{"text":"\ud800x"}', "utf8", []],
  ["a lone low surrogate", '{"text":"x\udc00"}', "utf8", []],
  ["claims gzip, is text", "\u001f\u008b not gzip", "utf8", GZIP],
  ["base64 text", Buffer.from('{"a":"é"}').toString("base64"), "base64", []],
  ["base64 gzip", gzipSync('{"a":1}').toString("base64"), "base64", GZIP],
  ["base64 cut mid-character", Buffer.from("é").subarray(0, 1).toString("base64"), "base64", []],
];

describe("exchangeFromWire", () => {
  for (const [what, body, encoding, headers] of BODIES) {
    it(`reads the upstream reply body as its bytes say: ${what}`, () => {
      const e = exchangeFromWire(sides({ status: 200, headers, body, bodyEncoding: encoding }));
      expect(e.upstreamReply?.body).toBe(byBytes(body, encoding, headers));
    });
  }

  it("lower-cases header names, sharing pairs that already are", () => {
    const headers: [string, string][] = [
      ["content-type", "application/json"],
      ["X-Api-Key", "k"],
      ["accept", "*/*"],
    ];
    const e = exchangeFromWire(sides(undefined, headers));
    const got = e.forwarded[0]?.headers;
    expect(got).toEqual([
      ["content-type", "application/json"],
      ["x-api-key", "k"],
      ["accept", "*/*"],
    ]);
    expect(got?.[0]).toBe(headers[0]);
    expect(headers[1]).toEqual(["X-Api-Key", "k"]);
    const lowerOnly: [string, string][] = [["accept", "*/*"]];
    expect(exchangeFromWire(sides(undefined, lowerOnly)).forwarded[0]?.headers).toEqual(lowerOnly);
  });

  it("gives the client body's text on demand, to reads, spreads and JSON alike", () => {
    const e = exchangeFromWire(sides(undefined));
    const text = '{"model":"m","messages":[{"role":"user","content":"hi"}]}';
    expect(e.clientRequest.headers).toEqual([["content-type", "application/json"]]);
    expect(e.clientRequest.rawBody).toBe(text);
    expect({ ...e.clientRequest }.rawBody).toBe(text);
    expect(JSON.parse(JSON.stringify(e.clientRequest)).rawBody).toBe(text);
  });
});
