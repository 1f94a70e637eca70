import { describe, expect, it } from "vitest";
import { STOP_REASONS } from "../canonical.ts";
import {
  ANTHROPIC_STOP_REASONS,
  anthropicStopFromWire,
  anthropicStopToWire,
} from "./stop-reason.ts";

describe("anthropic-messages stop-reason table", () => {
  it.each(ANTHROPIC_STOP_REASONS.map((row) => [row.wire, row] as const))(
    "reads %s",
    (_wire, row) => {
      expect(anthropicStopFromWire(row.wire)).toBe(row.reads);
    },
  );

  it.each(
    ANTHROPIC_STOP_REASONS.flatMap((row) =>
      row.writes.map((reason) => [reason, row.wire] as const),
    ),
  )("writes canonical %s as %s", (reason, wire) => {
    expect(anthropicStopToWire(reason)).toBe(wire);
  });

  it("writes every canonical value from exactly one row, each row citing a doc", () => {
    for (const reason of STOP_REASONS) {
      const rows = ANTHROPIC_STOP_REASONS.filter((row) =>
        (row.writes as readonly string[]).includes(reason),
      );
      expect(
        rows.map((r) => r.wire),
        reason,
      ).toHaveLength(1);
    }
    for (const row of ANTHROPIC_STOP_REASONS) expect(row.see).toMatch(/^https:\/\//);
  });

  it("reads an unknown value as other", () => {
    expect(anthropicStopFromWire("end")).toBe("other");
  });
});
