import { describe, expect, it } from "vitest";
import { STOP_REASONS } from "../canonical.ts";
import { chatStopFromWire, chatStopToWire, OPENAI_CHAT_STOP_REASONS } from "./stop-reason.ts";

describe("openai-chat stop-reason table", () => {
  it.each(OPENAI_CHAT_STOP_REASONS.map((row) => [row.wire, row] as const))(
    "reads %s",
    (_wire, row) => {
      expect(chatStopFromWire(row.wire)).toBe(row.reads);
    },
  );

  it.each(
    OPENAI_CHAT_STOP_REASONS.flatMap((row) =>
      row.writes.map((reason) => [reason, row.wire] as const),
    ),
  )("writes canonical %s as %s", (reason, wire) => {
    expect(chatStopToWire(reason)).toBe(wire);
  });

  it("writes every canonical value from exactly one row, each row citing a doc", () => {
    for (const reason of STOP_REASONS) {
      const rows = OPENAI_CHAT_STOP_REASONS.filter((row) =>
        (row.writes as readonly string[]).includes(reason),
      );
      expect(
        rows.map((r) => r.wire),
        reason,
      ).toHaveLength(1);
    }
    for (const row of OPENAI_CHAT_STOP_REASONS) expect(row.see).toMatch(/^https:\/\//);
  });

  it("does not infer a tool turn: Chat states it, so a missing tool_calls is the gateway's", () => {
    expect(chatStopFromWire("stop")).toBe("stop");
  });
  it("reads an unknown value as other", () => {
    expect(chatStopFromWire("eos")).toBe("other");
  });
});
