import { describe, expect, it } from "vitest";
import { STOP_REASONS } from "../canonical.ts";
import { GEMINI_STOP_REASONS, geminiStopFromWire, geminiStopToWire } from "./stop-reason.ts";

describe("gemini stop-reason table", () => {
  it.each(GEMINI_STOP_REASONS.map((row) => [row.wire, row] as const))("reads %s", (_wire, row) => {
    expect(geminiStopFromWire(row.wire, false)).toBe(row.reads);
  });

  it.each(
    GEMINI_STOP_REASONS.flatMap((row) => row.writes.map((reason) => [reason, row.wire] as const)),
  )("writes canonical %s as %s", (reason, wire) => {
    expect(geminiStopToWire(reason)).toBe(wire);
  });

  it("writes every canonical value from exactly one row, each row citing a doc", () => {
    for (const reason of STOP_REASONS) {
      const rows = GEMINI_STOP_REASONS.filter((row) =>
        (row.writes as readonly string[]).includes(reason),
      );
      expect(
        rows.map((r) => r.wire),
        reason,
      ).toHaveLength(1);
    }
    for (const row of GEMINI_STOP_REASONS) expect(row.see).toMatch(/^https:\/\//);
  });

  it("infers a tool turn from functionCall parts, since Gemini says STOP", () => {
    expect(geminiStopFromWire("STOP", true)).toBe("tool_calls");
    expect(geminiStopFromWire("MAX_TOKENS", true)).toBe("length");
    expect(geminiStopToWire("tool_calls")).toBe("STOP");
  });
});
