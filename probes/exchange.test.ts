import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import {
  ExchangeError,
  headerValue,
  isExchangeShape,
  parseExchange,
  parseExchangeBySchema,
  parseExchangeText,
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
    expect(e.clientRequest.headers).toEqual([["x-api-key", "k"]]);
    expect(e.forwarded[0]?.headers).toEqual([["authorization", "Bearer t"]]);
    expect(headerValue(e.forwarded[0]?.headers ?? [], "Authorization")).toBe("Bearer t");
    expect(e.secrets).toEqual([]);
  });

  it("parses a raw JSON body string and keeps the raw text; keeps a non-JSON body as text", () => {
    const e = parseExchange({
      ...minimal,
      forwarded: [{ path: "/v1/chat/completions", body: "not json {" }, ...minimal.forwarded],
    });
    expect(e.forwarded[0]).toMatchObject({
      method: "POST",
      body: "not json {",
      rawBody: "not json {",
    });
    expect(e.forwarded[1]).toMatchObject({ body: { model: "m" }, rawBody: '{"model":"m"}' });
    expect(e.clientRequest.rawBody).toBe('{"model":"m"}');
    // Serialized on first read, but a field like any other to JSON and to spreading.
    expect({ ...e.clientRequest }.rawBody).toBe('{"model":"m"}');
    expect(JSON.parse(JSON.stringify(e.clientRequest)).rawBody).toBe('{"model":"m"}');
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
  });

  it("rejects a reply body that is not the raw string", () => {
    const error = errorOf(() =>
      parseExchange({ ...minimal, clientResponse: { status: 200, body: { id: "x" } } }),
    );
    expect(error.message).toContain("clientResponse.body");
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

type Outcome = { ok: true; exchange: unknown } | { ok: false; message: string };

function outcome(parse: () => unknown): Outcome {
  try {
    return { ok: true, exchange: parse() };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

const ODD_VALUES: unknown[] = [undefined, null, 99, 700, 1.5, -1, "", "x", "/p", [], {}, [1], true];
/** Deeper down (headers, timing records) fewer replacements keep the test quick. */
const FEW_ODD_VALUES: unknown[] = [undefined, 1.5, "x", {}];

/** The value with one node replaced (undefined deletes the key), or extended by a stray key. */
function mutations(value: unknown, depth = 0): unknown[] {
  if (depth > 4 || typeof value !== "object" || value === null) return [];
  const out: unknown[] = [];
  const odds = depth < 2 ? ODD_VALUES : FEW_ODD_VALUES;
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      for (const odd of odds) out.push(value.map((v, j) => (j === i ? odd : v)));
      for (const inner of mutations(item, depth + 1))
        out.push(value.map((v, j) => (j === i ? inner : v)));
    });
    out.push([...value, ["x-extra", "1"]]);
    return out;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    for (const odd of odds) {
      const copy = { ...record };
      if (odd === undefined) delete copy[key];
      else copy[key] = odd;
      out.push(copy);
    }
    // Inside a request body every value is legal (the dialect readers judge it): not walked.
    if (key === "body") continue;
    for (const inner of mutations(record[key], depth + 1)) out.push({ ...record, [key]: inner });
  }
  out.push({ ...record, stray: 1 });
  return out;
}

describe("parseExchange's hand-written check", () => {
  it("gives what the schema gives, or the schema's own error, on every fixture and thousands of broken variants", () => {
    let fast = 0;
    let cases = 0;
    // Every file as it is; the mutations of a few shapes (object and pair headers, body as
    // JSON and as text, stream and non-stream, timing) keep the suite quick.
    const mutated = new Set([
      "minimal",
      "anthropic-to-chat-non-stream-faithful.json",
      "chat-to-ollama-stream-tool-turn.json",
      join("real", "portkey-am-stop-sequences-anthropic-messages-non-stream.json"),
    ]);
    for (const { name, value } of [{ name: "minimal", value: minimal }, ...exchangeFiles()]) {
      const timed = {
        ...(value as object),
        timing: { forwarded: [{ atMs: 0, status: 200 }], clientTotalMs: 5 },
      };
      const variants = mutated.has(name)
        ? [value, timed, ...mutations(value), ...mutations(timed)]
        : [value];
      for (const variant of variants) {
        cases++;
        if (isExchangeShape(variant)) fast++;
        const got = outcome(() => parseExchange(variant, name));
        const want = outcome(() => parseExchangeBySchema(variant, name));
        if (!isDeepStrictEqual(got, want))
          expect(got, `${name}: ${JSON.stringify(variant).slice(0, 300)}`).toEqual(want);
        if (isExchangeShape(variant)) expect(want.ok).toBe(true);
      }
    }
    // Both paths must have been exercised: most variants break the shape, the originals pass.
    expect(fast).toBeGreaterThan(20);
    expect(cases - fast).toBeGreaterThan(1000);
  });

  it("leaves values the schema would copy differently to the schema", () => {
    const body = JSON.parse('{"model":"m","__proto__":{"x":1}}');
    const symbolic = { model: "m", [Symbol("s")]: 1 };
    const hidden = Object.defineProperty({ model: "m" }, "secret", { value: 1, enumerable: false });
    class Body {
      model = "m";
    }
    const nullProto = Object.assign(Object.create(null), { model: "m" });
    for (const odd of [body, symbolic, hidden, new Body(), nullProto]) {
      const variant = { ...minimal, clientRequest: { ...minimal.clientRequest, body: odd } };
      expect(isExchangeShape(variant)).toBe(false);
      const want = outcome(() => parseExchangeBySchema(variant));
      expect(outcome(() => parseExchange(variant))).toEqual(want);
    }
    // The schema refuses a symbol key; it drops `__proto__` and the hidden key.
    expect(
      outcome(() =>
        parseExchange({ ...minimal, clientRequest: { path: "/v1/messages", body: symbolic } }),
      ).ok,
    ).toBe(false);
    expect(isExchangeShape(minimal)).toBe(true);
  });

  it("keeps the schema's error text for a broken file", () => {
    const bad = { ...minimal, mode: "both", forwarded: [{ path: "v1" }] };
    const error = errorOf(() => parseExchange(bad, "t.json"));
    expect(error.message).toBe(errorOf(() => parseExchangeBySchema(bad, "t.json")).message);
    expect(error.message).toContain("forwarded.0.path");
  });
});
