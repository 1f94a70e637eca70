import { describe, expect, it } from "vitest";
import { isRunId, RUN_ID_MAX, requireRunId } from "./run-id.ts";
import { newRunId } from "./store.ts";

describe("run ids", () => {
  it("takes generated ids and the names a user gives shards", () => {
    for (const id of [newRunId(), "night-1", "shard_a.2", "A", "r".repeat(RUN_ID_MAX)]) {
      expect(isRunId(id), id).toBe(true);
    }
  });

  it("refuses what is not one folder name", () => {
    const bad = ["", ".", "..", ".hidden", "-rf", "_x", "a/b", "../x", "a\\b", "/abs", "a b"];
    for (const id of [...bad, "x\n<b>", "x\0", "é", "r".repeat(RUN_ID_MAX + 1)]) {
      expect(isRunId(id), JSON.stringify(id)).toBe(false);
    }
  });

  it("says where the id came from and what a run id is", () => {
    expect(() => requireRunId("..", "--run-id")).toThrow(
      '--run-id: ".." is not a run id (a run id is 1 to 80 letters, digits, . _ -, starting with a letter or digit: one folder name under <out>/runs/)',
    );
    expect(() => requireRunId("x".repeat(500), "merge input a.db", "; nothing was merged")).toThrow(
      /^merge input a\.db: "x{79}…" \(500 characters\) is not a run id .*; nothing was merged$/,
    );
  });
});
