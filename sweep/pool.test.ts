import { expect, it } from "vitest";
import { forEachLimited, Slots } from "./pool.ts";

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

it("Slots: at most `size` holders, served in arrival order, a slot freed even when work throws", async () => {
  const slots = new Slots(2);
  let inFlight = 0;
  let peak = 0;
  const started: number[] = [];
  const work = (n: number) =>
    slots.run(async () => {
      started.push(n);
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight--;
      if (n === 1) throw new Error("boom");
      return n;
    });
  const results = await Promise.allSettled([1, 2, 3, 4, 5].map(work));
  expect(peak).toBe(2);
  expect(started).toEqual([1, 2, 3, 4, 5]);
  expect(results.map((r) => r.status)).toEqual([
    "rejected",
    "fulfilled",
    "fulfilled",
    "fulfilled",
    "fulfilled",
  ]);
  // Every slot came back: two more holders start at once.
  let together = 0;
  await Promise.all(
    [6, 7].map(() =>
      slots.run(async () => {
        together++;
        await new Promise((resolve) => setTimeout(resolve, 2));
        expect(together).toBe(2);
      }),
    ),
  );
});
