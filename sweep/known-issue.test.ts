import { describe, expect, it } from "vitest";
import { versionMatches } from "./known-issue.ts";

describe("versionMatches", () => {
  it("matches exact lists", () => {
    expect(versionMatches("2.0.0", ["2.0.0", "2.0.1"])).toBe(true);
    expect(versionMatches("2.0.2", ["2.0.0"])).toBe(false);
  });

  it("matches comparator ranges", () => {
    expect(versionMatches("1.96.2", ">=1.96.2 <1.97")).toBe(true);
    expect(versionMatches("1.97.0", ">=1.96.2 <1.97")).toBe(false);
    expect(versionMatches("1.96.1", ">=1.96.2")).toBe(false);
    expect(versionMatches("1.15.2", "1.15.2")).toBe(true);
    expect(versionMatches("1.15.2", "<=1.15")).toBe(false);
  });

  it("takes * (an issue that states no version) for every version", () => {
    expect(versionMatches("1.96.2", "*")).toBe(true);
  });

  it("never matches a range it cannot read", () => {
    expect(versionMatches("1.0.0", "^1.0.0")).toBe(false);
  });
});
