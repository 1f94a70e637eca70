import { expect, it } from "vitest";
import { forEachLimited, forEachLimitedApart, Slots } from "./pool.ts";

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

it("forEachLimitedApart: items apart never hold the others' lanes, each group within its limit", async () => {
  // The waits (odd numbers, listed first) end only once every other item is done: with one
  // shared set of lanes they would hold them all and this would never resolve.
  let release = () => {};
  const othersDone = new Promise<void>((resolve) => {
    release = resolve;
  });
  const items = [1, 3, 5, 7, 9, 2, 4, 6];
  const seen: number[] = [];
  const inFlight = { waits: 0, others: 0 };
  const peak = { waits: 0, others: 0 };
  await forEachLimitedApart(
    items,
    (n) => n % 2 === 1,
    { rest: 2, apart: 3 },
    async (n) => {
      const group = n % 2 === 1 ? "waits" : "others";
      inFlight[group]++;
      peak[group] = Math.max(peak[group], inFlight[group]);
      if (group === "waits") await othersDone;
      else await new Promise((resolve) => setTimeout(resolve, 2));
      seen.push(n);
      inFlight[group]--;
      if (seen.filter((x) => x % 2 === 0).length === 3) release();
    },
  );
  expect(seen.slice(0, 3)).toEqual([2, 4, 6]);
  expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 9]);
  expect(peak).toEqual({ waits: 3, others: 2 });
});
