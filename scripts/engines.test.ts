/**
 * The Node versions we promise are the ones every installed package supports (the README's
 * `npm ci && npx gatecheck sweep` and `npm test` included), and the README says the same.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import packageJson from "../package.json" with { type: "json" };

const ROOT = join(import.meta.dirname, "..");
const semver = createRequire(import.meta.url)("semver") as {
  subset(range: string, superset: string): boolean;
  satisfies(version: string, range: string): boolean;
};
const ours = packageJson.engines.node;

describe("the Node versions we promise", () => {
  it("are the README's", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain(`Node \`${ours}\``);
  });

  it("are a part of what every installed package says it runs on", () => {
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    const narrower = Object.entries(lock.packages)
      .filter(([path, entry]) => path && entry.engines?.node && existsSync(join(ROOT, path)))
      .filter(([, entry]) => !semver.subset(ours, entry.engines?.node ?? "*"))
      .map(([path, entry]) => `${path}: ${entry.engines?.node}`);
    expect(narrower).toEqual([]);
  });

  it("include the Node running these tests", () => {
    expect(semver.satisfies(process.versions.node, ours)).toBe(true);
  });
});
