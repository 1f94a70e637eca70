/**
 * A record line rendered with the recorder's memo against the same line without it, over
 * sequences of requests whose parts repeat, change and come back.
 */
import { afterEach, describe, expect, it } from "vitest";
import { redactionTag, refreshEnvironmentSecrets } from "../dialects/credentials.ts";
import { LineMemo } from "./line-memo.ts";
import { lineJson } from "./record-line.ts";
import { trafficInput } from "./test-helpers.ts";
import { renderTrafficLine, type TrafficLine, trafficLine } from "./traffic-record.ts";

const REPLY = Buffer.from('{"id":"x","choices":[]}');

function line(headers: [string, string][], patch: Partial<TrafficLine> = {}): TrafficLine {
  const input = trafficInput('{"model":"m"}', REPLY, "/v1/chat/completions", headers);
  return { ...trafficLine(input), ...patch };
}

const plain = (l: TrafficLine) => lineJson(renderTrafficLine(l));

afterEach(() => refreshEnvironmentSecrets({}));

describe("a record line with the memo", () => {
  it("is the line without it, request after request", () => {
    const memo = new LineMemo();
    const auth: [string, string] = ["Authorization", "Bearer sk-proj-abcdefghijklmnop1234"];
    const decision = Object.freeze({ status: 200, staged: false });
    const lines = [
      line([["Host", "h"], auth]),
      line([["Host", "h"], auth], { seq: 8, receivedAt: "2026-11-30T05:00:00.001Z" }),
      line([["Host", "h"], auth, ["Content-Length", "12"]], { reply: decision }),
      line([["Host", "h"], auth, ["Content-Length", "13"]], { reply: decision }),
      line([auth, ["Host", "h"]], { model: "other", method: "PUT" }),
      line([["X-Api-Key", "sk-ant-abcdefghijk0123"]], { path: "/v1/messages", query: "" }),
      line([], { listener: "second", replyHeaders: [["X-Request-Id", "req_2"]] }),
      line([["Host", "h"], auth], { replyHeaders: [["X-Request-Id", "req_3"]] }),
      line([["Host", "h"], auth]),
    ];
    for (const [n, l] of lines.entries()) {
      expect(lineJson(renderTrafficLine(l, memo)), `line ${n}`).toBe(plain(l));
    }
  });

  it("redacts against the environment's secrets of now, not of the last line", () => {
    const memo = new LineMemo();
    const secret = "tok-9f8e7d6c5b4a39281706";
    const headers: [string, string][] = [["X-Trace", `id ${secret}`]];
    const path = `/v1/${secret}/chat`;
    const before = lineJson(renderTrafficLine(line(headers, { path }), memo));
    expect(before).toContain(secret);
    refreshEnvironmentSecrets({ SERVICE_TOKEN: secret });
    const after = lineJson(renderTrafficLine(line(headers, { path }), memo));
    expect(after).not.toContain(secret);
    expect(after).toContain(redactionTag(secret));
    expect(after).toBe(plain(line(headers, { path })));
  });

  it("serializes a decision made per request each time, even when one object is reused", () => {
    const memo = new LineMemo();
    const decision: { status: number; staged: boolean; reason?: string } = {
      status: 400,
      staged: false,
    };
    const first = line([], { reply: decision });
    expect(lineJson(renderTrafficLine(first, memo))).toBe(plain(first));
    decision.reason = "malformed-json";
    const second = line([], { reply: decision });
    expect(lineJson(renderTrafficLine(second, memo))).toContain('"reason":"malformed-json"');
  });
});
