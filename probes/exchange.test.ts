import { describe, expect, it } from "vitest";
import { ExchangeError, headerValue, parseExchange, parseExchangeText } from "./exchange.ts";

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
