import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { bytesOf, textBytes } from "../dialects/wire/bytes.ts";
import { wireExchangeSchema } from "../dialects/wire/exchange.ts";
import {
  ExchangeError,
  exchangeOfWire,
  headerValue,
  parseExchange,
  parseExchangeText,
  parseWireExchange,
  replyText,
} from "./exchange.ts";

const minimal = {
  route: { client: "anthropic-messages", backend: "openai-chat" },
  mode: "non-stream",
  clientRequest: { path: "/v1/messages", headers: { "X-Api-Key": "k" }, body: { model: "m" } },
  forwarded: [
    {
      method: "POST",
      path: "/v1/chat/completions",
      headers: [["Authorization", "Bearer t"]],
      body: '{"model":"m"}',
    },
  ],
};

function errorOf(fn: () => unknown): ExchangeError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ExchangeError) return error;
    throw error;
  }
  throw new Error("expected an ExchangeError");
}

describe("parseExchange", () => {
  it("accepts headers as an object or as pairs, lower-casing names and keeping order", () => {
    const e = parseExchange(minimal);
    expect(e.clientRequest?.headers).toEqual([["x-api-key", "k"]]);
    expect(e.forwarded?.[0]?.headers).toEqual([["authorization", "Bearer t"]]);
    expect(headerValue(e.forwarded?.[0]?.headers ?? [], "authorization")).toBe("Bearer t");
    expect(e.secrets).toEqual([]);
    expect(e.context).toEqual({});
  });

  it("reads every body form into the vocabulary's bytes, the same for the judges", () => {
    const json = '{"model":"m"}';
    for (const body of [{ model: "m" }, json, textBytes(json)]) {
      const wire = parseWireExchange({ ...minimal, clientRequest: { path: "/v1/messages", body } });
      expect(wire.clientRequest?.body).toEqual(textBytes(json));
      const e = exchangeOfWire(wire);
      expect(e.clientRequest).toMatchObject({
        method: "POST",
        body: { model: "m" },
        rawBody: json,
      });
    }
    expect(wireExchangeSchema.safeParse(parseWireExchange(minimal)).success).toBe(true);
  });

  it("keeps a non-JSON body as its text, and bytes that are not UTF-8 one character per byte", () => {
    const binary = Buffer.from([0x7b, 0xff, 0x7d]);
    const e = parseExchange({
      ...minimal,
      forwarded: [
        { path: "/v1/chat/completions", body: "not json {" },
        { path: "/v1/chat/completions", body: bytesOf(binary) },
        ...minimal.forwarded,
      ],
    });
    expect(e.forwarded?.[0]).toMatchObject({ body: "not json {", rawBody: "not json {" });
    expect(e.forwarded?.[1]).toMatchObject({ body: binary.toString("latin1") });
    expect(e.forwarded?.[2]).toMatchObject({ body: { model: "m" }, rawBody: '{"model":"m"}' });
  });

  it("reads a reply body as a client would: gzip undone when announced and real", () => {
    const gzip: [string, string][] = [["content-encoding", "gzip"]];
    const text = '{"text":"é 中文 😀"}';
    expect(replyText(textBytes(text), gzip)).toBe(text);
    expect(replyText(bytesOf(gzipSync(text)), gzip)).toBe(text);
    expect(replyText(bytesOf(gzipSync(text)), [])).toBe(gzipSync(text).toString("utf8"));
    const cut = Buffer.from("é").subarray(0, 1);
    expect(replyText(bytesOf(cut), [])).toBe("\ufffd");
    const e = parseExchange({
      ...minimal,
      clientResponse: { status: 200, headers: gzip, body: bytesOf(gzipSync(text)) },
    });
    expect(e.clientResponse?.body).toBe(text);
  });

  it("names the path inside the file and what was expected", () => {
    const bad = {
      ...minimal,
      route: { client: "gemini", backend: "openai-chat" },
      upstreamResponse: {},
    };
    const error = errorOf(() => parseExchange(bad, "trace.json"));
    expect(error.code).toBe("invalid-exchange");
    expect(error.message).toContain("trace.json is not a valid exchange");
    expect(error.message).toContain("route.client");
    expect(error.message).toMatch(/upstreamResponse/);
    const path = errorOf(() => parseExchange({ ...minimal, forwarded: [{ path: "v1" }] }));
    expect(path.message).toContain("forwarded[0].path");
    expect(path.message).toContain("forwarded[0].body");
  });

  it("explains a body of no accepted form by the form it came closest to", () => {
    const object = errorOf(() =>
      parseExchange({ ...minimal, clientResponse: { status: 200, body: { id: "x" } } }),
    );
    expect(object.message).toContain("clientResponse.body");
    const base64 = errorOf(() =>
      parseExchange({
        ...minimal,
        clientResponse: { status: 200, body: { data: "%%", encoding: "base64" } },
      }),
    );
    expect(base64.message).toContain("clientResponse.body.data: expected base64 data");
  });

  it("takes an exchange without a client side, and refuses a client response without its request", () => {
    const backendOnly = { route: { backend: "openai-chat" }, mode: "non-stream", forwarded: [] };
    const e = parseExchange(backendOnly);
    expect(e.clientRequest).toBeUndefined();
    expect(e.route.client).toBeUndefined();
    const orphan = errorOf(() =>
      parseExchange({ ...backendOnly, clientResponse: { status: 200, body: "{}" } }),
    );
    expect(orphan.message).toContain("clientRequest: expected the client request");
    const { forwarded: _, ...unrecorded } = minimal;
    expect(parseExchange(unrecorded).forwarded).toBeUndefined();
  });

  it("reads the judging context and puts the sender's secrets first when given", () => {
    const wire = parseWireExchange({
      ...minimal,
      secrets: ["sk-file"],
      context: { fallback: { targets: ["a:1", "b:2"], on: [503] }, deadlineMs: 8000 },
    });
    expect(exchangeOfWire(wire).secrets).toEqual(["sk-file"]);
    expect(exchangeOfWire(wire, ["sk-canary"]).secrets).toEqual(["sk-canary"]);
    expect(exchangeOfWire(wire).context.fallback?.on).toEqual([503]);
  });

  it("says when the text is not JSON at all", () => {
    const error = errorOf(() => parseExchangeText("{oops", "x.json"));
    expect(error.code).toBe("invalid-json");
    expect(error.message).toMatch(/^x\.json is not JSON/);
  });
});

/** Every exchange file the lens tests read: the hand-made fixtures and the recordings. */
function exchangeFiles(): { name: string; value: unknown }[] {
  const dir = join(import.meta.dirname, "lens", "fixtures");
  const names = [
    ...readdirSync(dir).filter((n) => n.endsWith(".json")),
    ...readdirSync(join(dir, "real"))
      .filter((n) => n.endsWith(".json"))
      .map((n) => join("real", n)),
  ];
  return names.map((name) => ({ name, value: JSON.parse(readFileSync(join(dir, name), "utf8")) }));
}

const ODD_VALUES: unknown[] = [undefined, null, 99, 700, 1.5, -1, "", "x", "/p", [], {}, [1], true];

/** The value with one node replaced (undefined deletes the key), or extended by a stray key. */
function mutations(value: unknown, depth = 0): unknown[] {
  if (depth > 3 || typeof value !== "object" || value === null) return [];
  const out: unknown[] = [];
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      for (const odd of ODD_VALUES) out.push(value.map((v, j) => (j === i ? odd : v)));
      for (const inner of mutations(item, depth + 1))
        out.push(value.map((v, j) => (j === i ? inner : v)));
    });
    return out;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    for (const odd of ODD_VALUES) {
      const copy = { ...record };
      if (odd === undefined) delete copy[key];
      else copy[key] = odd;
      out.push(copy);
    }
    if (key === "body") continue;
    for (const inner of mutations(record[key], depth + 1)) out.push({ ...record, [key]: inner });
  }
  out.push({ ...record, stray: 1 });
  return out;
}

describe("every file the lens reads, and broken variants of a few", () => {
  it("parses each fixture into the strict vocabulary, and refuses a broken one with its path", () => {
    const broken = new Set(["minimal", "anthropic-to-chat-non-stream-faithful.json"]);
    let refused = 0;
    for (const { name, value } of [{ name: "minimal", value: minimal }, ...exchangeFiles()]) {
      expect(wireExchangeSchema.safeParse(parseWireExchange(value, name)).success, name).toBe(true);
      if (!broken.has(name)) continue;
      for (const variant of mutations(value)) {
        try {
          parseWireExchange(variant, name);
        } catch (error) {
          // A refusal is always the exchange's own error, naming at least one place in it.
          expect(error, JSON.stringify(variant).slice(0, 200)).toBeInstanceOf(ExchangeError);
          expect((error as Error).message).toMatch(/is not a valid exchange:\n {2}\S[^\n]*: /);
          refused++;
        }
      }
    }
    expect(refused).toBeGreaterThan(300);
  });

  it("keeps a body key named __proto__ (issue 20: judged like any other)", () => {
    const body = JSON.parse('{"model":"m","__proto__":{"x":1}}');
    const exchange = parseExchange({ ...minimal, clientRequest: { path: "/v1/messages", body } });
    expect(exchange.clientRequest?.rawBody).toContain('"__proto__":{"x":1}');
    expect(Object.hasOwn(exchange.clientRequest?.body as object, "__proto__")).toBe(true);
    const symbolic = { model: "m", [Symbol("s")]: 1 };
    expect(() =>
      parseExchange({ ...minimal, clientRequest: { path: "/v1/messages", body: symbolic } }),
    ).toThrow(ExchangeError);
  });
});
