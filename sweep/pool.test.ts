import { expect, it } from "vitest";
import { forEachLimited } from "./pool.ts";

it("never runs more than the limit at once and visits every item once", async () => {
  let inFlight = 0;
  let peak = 0;
  const seen: number[] = [];
  await forEachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 5));
    seen.push(item);
    inFlight--;
  });
  expect(peak).toBe(3);
  expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
});

it("handles an empty list", async () => {
  await forEachLimited([], 4, async () => {
    throw new Error("never called");
  });
});
