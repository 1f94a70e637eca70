import { describe, expect, it } from "vitest";
import { STOP_REASONS } from "../canonical.ts";
import {
  OPENAI_RESPONSES_STOP_REASONS,
  responsesStopFromWire,
  responsesStopToWire,
  responsesStopWire,
} from "./stop-reason.ts";

describe("openai-responses stop-reason table", () => {
  it.each(OPENAI_RESPONSES_STOP_REASONS.map((row) => [row.wire, row] as const))(
    "reads %s",
    (_wire, row) => {
      expect(responsesStopFromWire(row.wire, false)).toBe(row.reads);
    },
  );

  it.each(
    OPENAI_RESPONSES_STOP_REASONS.flatMap((row) =>
      row.writes.map((reason) => [reason, row.wire] as const),
    ),
  )("writes canonical %s as %s", (reason, wire) => {
    expect(
      responsesStopWire(responsesStopToWire(reason).status, responsesStopToWire(reason).reason),
    ).toBe(wire);
  });

  it("writes every canonical value from exactly one row, each row citing a doc", () => {
    for (const reason of STOP_REASONS) {
      const rows = OPENAI_RESPONSES_STOP_REASONS.filter((row) =>
        (row.writes as readonly string[]).includes(reason),
      );
      expect(
        rows.map((r) => r.wire),
        reason,
      ).toHaveLength(1);
    }
    for (const row of OPENAI_RESPONSES_STOP_REASONS) expect(row.see).toMatch(/^https:\/\//);
  });

  it("infers a tool turn from function_call items in a completed response", () => {
    expect(responsesStopFromWire("completed", true)).toBe("tool_calls");
    // An incomplete response stays a truncation even with calls in it.
    expect(responsesStopFromWire("incomplete/max_output_tokens", true)).toBe("length");
  });
  it("spells status and incomplete reason together", () => {
    expect(responsesStopWire("incomplete", "content_filter")).toBe("incomplete/content_filter");
    expect(responsesStopToWire("length")).toEqual({
      status: "incomplete",
      reason: "max_output_tokens",
    });
  });
});
