import { expect, it } from "vitest";
import { Deadline } from "./deadline.ts";

it("reserves the report's time out of the budget", () => {
  let clock = 1_000;
  const deadline = new Deadline(60_000, 10_000, () => clock);
  expect(deadline.remainingForWork()).toBe(50_000);
  clock += 49_999;
  expect(deadline.workExpired()).toBe(false);
  clock += 1;
  expect(deadline.workExpired()).toBe(true);
  expect(deadline.remaining()).toBe(10_000);
  clock += 20_000;
  expect(deadline.remaining()).toBe(0);
});
