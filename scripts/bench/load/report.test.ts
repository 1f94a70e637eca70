import { describe, expect, it } from "vitest";
import { median, regimeSummary, regimeText, type Sample } from "./report.ts";

const round = (perSecond: number, cpuMicros: number, extra: Partial<Sample> = {}): Sample => ({
  perSecond,
  p50Ms: 1,
  p99Ms: 2,
  cpuMicros,
  errors: 0,
  ...extra,
});

describe("the mock load benchmark's report", () => {
  it("takes the median of an even count as the mean of the middle two", () => {
    expect(median([3, 1, 4, 2])).toBe(2.5);
    expect(median([5])).toBe(5);
    expect(median([])).toBeNaN();
  });

  it("pairs rounds: a target's ratio is the median of the per-round ratios, not a ratio of medians", () => {
    const samples = new Map([
      ["bare-json", [round(100, 10), round(200, 20), round(100, 10)]],
      [
        "mock",
        [
          round(40, 25, { catchUpMs: 3, linesPerRequest: 1.2 }),
          round(120, 33, { catchUpMs: 7, linesPerRequest: 1 }),
          round(60, 20, { catchUpMs: 1, linesPerRequest: 1.1 }),
        ],
      ],
    ]);
    const { servers, targets } = regimeSummary(samples);
    expect(servers.find((s) => s.name === "mock")).toMatchObject({
      perSecond: 60,
      cpuMicrosPerRequest: 25,
      catchUpMsMax: 7,
      linesPerRequestMin: 1,
    });
    expect(servers.find((s) => s.name === "bare-json")).not.toHaveProperty("catchUpMsMax");
    expect(targets).toHaveLength(1);
    const [json] = targets;
    expect(json).toMatchObject({ name: "mock / bare, JSON", ratios: [0.4, 0.6, 0.6], median: 0.6 });
    expect(json?.cpuRatios).toEqual([0.4, 0.61, 0.5]);
    expect(json?.cpuMedian).toBe(0.5);
    const text = regimeText("distinct nonces", { servers, targets });
    expect(text).toContain("mock / bare, JSON: 0.6 (rounds 0.4, 0.6, 0.6; target >= 0.5: met)");
    expect(text).toContain("by CPU 0.5 (rounds 0.4, 0.61, 0.5)");
  });

  it("says NOT met below the target", () => {
    const samples = new Map([
      ["bare-json", [round(100, 10)]],
      ["mock", [round(49, 21)]],
    ]);
    expect(regimeText("shared nonces", regimeSummary(samples))).toContain("target >= 0.5: NOT met");
  });
});
