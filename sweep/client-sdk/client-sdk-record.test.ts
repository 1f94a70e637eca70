import { describe, expect, it } from "vitest";
import type { CanonicalReply } from "../../dialects/canonical.ts";
import { compareSdkWithLens } from "./client-sdk-record.ts";

const lens: CanonicalReply = {
  dialect: "openai-chat",
  parts: [
    { type: "text", text: "hi" },
    { type: "tool-call", id: "call_1", name: "get_time", arguments: '{"tz":"UTC"}' },
  ],
  stopReason: "tool_calls",
  rawStopReason: "tool_calls",
  extras: {},
};

describe("compareSdkWithLens", () => {
  it("has no finding and no disagreement when the SDK reads what the lens read", () => {
    const record = compareSdkWithLens(
      200,
      {
        accepted: true,
        stopReason: "tool_calls",
        text: "hi",
        toolCalls: [
          { id: "call_1", name: "get_time", arguments: { tz: "UTC" }, argumentsParsed: true },
        ],
      },
      lens,
    );
    expect(record.findings).toEqual([]);
    expect(record.disagreements).toEqual([]);
  });

  it("finds a success the SDK cannot read, and says the lens read it as clean", () => {
    const record = compareSdkWithLens(200, { accepted: false, error: "stream ended early" }, lens);
    expect(record.findings).toEqual(["sdk-rejected-success: stream ended early"]);
    expect(record.disagreements[0]).toMatch(/^accepted: SDK refused/);
  });

  it("finds tool arguments an agent cannot parse", () => {
    const record = compareSdkWithLens(
      200,
      {
        accepted: true,
        stopReason: "tool_calls",
        text: "hi",
        toolCalls: [
          {
            id: "call_1",
            name: "get_time",
            arguments: undefined,
            argumentsParsed: false,
            argumentsError: "Unexpected end",
          },
        ],
      },
      lens,
    );
    expect(record.findings).toEqual([
      "tool-arguments-unparseable: get_time (call_1): Unexpected end",
    ]);
  });

  it("does not count an upstream error the SDK refuses as a finding", () => {
    const record = compareSdkWithLens(503, { accepted: false, error: "503 overloaded" }, undefined);
    expect(record).toMatchObject({ findings: [], disagreements: [] });
  });
});
