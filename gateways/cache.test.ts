import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installDirFor } from "./cache.ts";

describe("installDirFor", () => {
  const cache = "/tmp/gc-cache/gateways";

  it("is one folder inside the cache, named by the column's label", () => {
    expect(installDirFor(cache, { name: "portkey", version: "1.15.2", variant: "locked" })).toBe(
      join(cache, "portkey@1.15.2+locked"),
    );
    expect(installDirFor(cache, { name: "x", version: ".." })).toBe(join(cache, "x@.."));
  });

  it("refuses a version (from a gateway file) that would put it anywhere else", () => {
    for (const version of ["../../victim", "../portkey@1.15.2", "1.0/../..", "a/b", "1\0"]) {
      expect(() => installDirFor(cache, { name: "x", version }), version).toThrow(
        /install folder would be .*, not its own folder inside \/tmp\/gc-cache\/gateways/,
      );
    }
  });
});
