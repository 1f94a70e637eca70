import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { insideRoot } from "./inside-root.ts";

describe("insideRoot", () => {
  const root = resolve("/tmp/gc-out/runs");

  it("gives the resolved path of what lies inside the root", () => {
    expect(insideRoot(root, "night-1")).toBe(join(root, "night-1"));
    expect(insideRoot("/tmp/gc-out/runs/", "night-1", "direct@0", "loops/a.json")).toBe(
      join(root, "night-1", "direct@0", "loops", "a.json"),
    );
    expect(insideRoot(root, "a..b")).toBe(join(root, "a..b"));
  });

  it("refuses the root itself and anything outside it", () => {
    for (const parts of [
      [""],
      ["."],
      [".."],
      ["../x"],
      ["a/../.."],
      ["/etc"],
      ["a", "../../b"],
      ["x\0"],
    ]) {
      expect(() => insideRoot(root, ...parts), JSON.stringify(parts)).toThrow(
        /^refusing the path .*: it must name something inside \/tmp\/gc-out\/runs/,
      );
    }
  });

  it("refuses a detour to another folder inside the root, and no path at all", () => {
    for (const parts of [["x/../night-2"], ["x", "..", "night-2"], ["a//b"], ["./a"], []]) {
      expect(() => insideRoot(root, ...parts), JSON.stringify(parts)).toThrow(/^refusing the path/);
    }
  });

  it("refuses a sibling folder whose name starts with the root's", () => {
    expect(() => insideRoot(root, "../runs-other/x")).toThrow(/refusing/);
  });
});
