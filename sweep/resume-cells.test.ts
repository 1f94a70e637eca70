import { describe, expect, it } from "vitest";
import type { DoneCell } from "../results/records.ts";
import { finishedCell } from "./resume-cells.ts";

const cell = (over: Partial<DoneCell>): DoneCell => ({
  column: "g@1",
  routeId: "anthropic-messages->openai-chat",
  probeId: "am-stop-sequences",
  mode: "non-stream",
  verdict: "preserved",
  runs: 1,
  stable: true,
  ...over,
});

describe("finishedCell", () => {
  it("keeps a cell clean at its first attempt, an error, an unattempted cell", () => {
    expect(finishedCell(cell({}), 5, true)).toBe(true);
    expect(finishedCell(cell({ verdict: "error", runs: 0 }), 5, true)).toBe(true);
    expect(finishedCell(cell({ verdict: "error", runs: 1 }), 5, true)).toBe(true);
  });

  it("runs again a non-clean cell short of its repeats", () => {
    expect(finishedCell(cell({ verdict: "rejected", runs: 1 }), 5, false)).toBe(false);
    expect(finishedCell(cell({ verdict: "rejected", runs: 4 }), 5, false)).toBe(false);
    expect(finishedCell(cell({ verdict: "rejected", runs: 5 }), 5, false)).toBe(true);
    expect(finishedCell(cell({ verdict: "rejected", runs: 1 }), 1, false)).toBe(true);
    // Clean by the majority of its repeats: finished when they all ran.
    expect(finishedCell(cell({ verdict: "preserved", runs: 3 }), 5, true)).toBe(false);
    expect(finishedCell(cell({ verdict: "preserved", runs: 5 }), 5, true)).toBe(true);
  });

  it("runs again a silent defect without the control verdict its control leg gives", () => {
    expect(finishedCell(cell({ verdict: "dropped", runs: 5 }), 5, true)).toBe(false);
    expect(
      finishedCell(cell({ verdict: "dropped", runs: 5, controlVerdict: "dropped" }), 5, true),
    ).toBe(true);
    expect(finishedCell(cell({ verdict: "dropped", runs: 5 }), 5, false)).toBe(true);
  });
});
