import { describe, expect, it } from "vitest";
import { inShard, parseShard, stableHash } from "./shard.ts";

describe("shards", () => {
  it("parses i/n and refuses nonsense", () => {
    expect(parseShard("2/3")).toEqual({ index: 2, count: 3 });
    for (const bad of ["0/3", "4/3", "3", "a/b", "1/0"])
      expect(() => parseShard(bad)).toThrow(/--shard/);
  });

  it("splits keys into disjoint shards whose union is everything", () => {
    const keys = Array.from(
      { length: 500 },
      (_, i) => `portkey@1.15.2|chat->anthropic|probe-${i}|stream`,
    );
    const shards = [1, 2, 3].map((index) => keys.filter((k) => inShard(k, { index, count: 3 })));
    expect(shards.flat().sort()).toEqual([...keys].sort());
    for (const part of shards) expect(part.length).toBeGreaterThan(100);
  });

  it("hashes stably", () => {
    expect(stableHash("gatecheck")).toBe(stableHash("gatecheck"));
    expect(stableHash("a")).not.toBe(stableHash("b"));
  });
});
