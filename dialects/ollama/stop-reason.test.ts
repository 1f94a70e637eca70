import { describe, expect, it } from "vitest";
import { STOP_REASONS } from "../canonical.ts";
import { OLLAMA_STOP_REASONS, ollamaStopFromWire, ollamaStopToWire } from "./stop-reason.ts";

describe("ollama stop-reason table", () => {
  it.each(OLLAMA_STOP_REASONS.map((row) => [row.wire, row] as const))("reads %s", (_wire, row) => {
    expect(ollamaStopFromWire(row.wire, false)).toBe(row.reads);
  });

  it.each(
    OLLAMA_STOP_REASONS.flatMap((row) => row.writes.map((reason) => [reason, row.wire] as const)),
  )("writes canonical %s as %s", (reason, wire) => {
    expect(ollamaStopToWire(reason)).toBe(wire);
  });

  it("writes every canonical value from exactly one row, each row citing a doc", () => {
    for (const reason of STOP_REASONS) {
      const rows = OLLAMA_STOP_REASONS.filter((row) =>
        (row.writes as readonly string[]).includes(reason),
      );
      expect(
        rows.map((r) => r.wire),
        reason,
      ).toHaveLength(1);
    }
    for (const row of OLLAMA_STOP_REASONS) expect(row.see).toMatch(/^https:\/\//);
  });

  it("infers a tool turn from tool_calls, since Ollama says stop", () => {
    expect(ollamaStopFromWire("stop", true)).toBe("tool_calls");
    expect(ollamaStopFromWire("length", true)).toBe("length");
    expect(ollamaStopToWire("tool_calls")).toBe("stop");
  });
});
