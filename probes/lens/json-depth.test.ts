import { describe, expect, it } from "vitest";
import { ExchangeError, parseExchange } from "../exchange.ts";
import { depthOver, MAX_JSON_DEPTH } from "./json-depth.ts";
import { judgeExchange } from "./judge-exchange.ts";

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

function exchange(clientDepth: number, forwardedDepth: number) {
  const body = (depth: number) =>
    `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}],"metadata":{"x":${nested(depth)}}}`;
  return parseExchange({
    route: { client: "anthropic-messages", backend: "anthropic-messages" },
    mode: "non-stream",
    clientRequest: { path: "/v1/messages", body: body(clientDepth) },
    forwarded: [{ path: "/v1/messages", body: body(forwardedDepth) }],
  });
}

describe("JSON nested deeper than the lens reads", () => {
  it("counts nesting outside strings, escapes included", () => {
    expect(depthOver(nested(5), 4)).toBe(5);
    expect(depthOver(nested(5), 5)).toBeUndefined();
    expect(depthOver(`{"a":"[[[[[[\\"[[["}`, 2)).toBeUndefined();
  });

  it("is refused with the side named, not a stack overflow (20,000 levels: check exit 2)", () => {
    const deep = exchange(20_000, 1);
    expect(() => judgeExchange(deep)).toThrow(ExchangeError);
    expect(() => judgeExchange(deep)).toThrow(
      /^clientRequest\.body: JSON nested 20002 levels deep, more than the 1000 the lens reads/,
    );
    const forwarded = exchange(1, 20_000);
    expect(() => judgeExchange(forwarded)).toThrow(/^forwarded\[0\]\.body: JSON nested/);
  });

  it("judges a body as deep as the limit", () => {
    const verdicts = judgeExchange(exchange(MAX_JSON_DEPTH - 3, MAX_JSON_DEPTH - 3));
    expect(verdicts.find((v) => v.field === "metadata")?.verdict).toBe("preserved");
  });
});
