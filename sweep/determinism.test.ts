import { describe, expect, it } from "vitest";
import { foldVerdicts } from "./determinism.ts";

describe("foldVerdicts", () => {
  it("is stable when all attempts agree", () => {
    expect(foldVerdicts(["dropped", "dropped", "dropped"])).toMatchObject({
      verdict: "dropped",
      k: 3,
      n: 3,
      stable: true,
    });
  });

  it("takes the majority and counts the rest", () => {
    const folded = foldVerdicts(["preserved", "dropped", "preserved", "preserved", "dropped"]);
    expect(folded).toMatchObject({ verdict: "preserved", k: 3, n: 5, stable: false });
    expect(folded.counts).toEqual({ preserved: 3, dropped: 2 });
  });

  it("breaks a tie toward the silent defect", () => {
    expect(foldVerdicts(["preserved", "mangled"]).verdict).toBe("mangled");
    expect(foldVerdicts(["error", "preserved"]).verdict).toBe("error");
  });

  it("refuses an empty list", () => {
    expect(() => foldVerdicts([])).toThrow();
  });
});
