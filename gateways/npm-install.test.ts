import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { portkey } from "./adapters/portkey.ts";
import { gatewayCacheDir, installedLabels } from "./cache.ts";

const cacheDir = join(mkdtempSync(join(tmpdir(), "gatecheck-npm-")), "gateways");
afterAll(() => rmSync(join(cacheDir, ".."), { recursive: true, force: true }));

describe("npm installs", () => {
  it("a version npm cannot resolve is not-run with the npm exit code, log path and tail, and leaves no install", async () => {
    const result = await portkey.install(
      { name: "portkey", version: "0.0.0-gatecheck-nope" },
      { cacheDir },
    );
    expect(result.status).toBe("not-run");
    if (result.status !== "not-run") return;
    expect(result.reason).toMatch(
      /portkey@0\.0\.0-gatecheck-nope: install failed \(npm install exited 1\)/,
    );
    expect(result.exitCode).toBe(1);
    expect(result.logPath && existsSync(result.logPath)).toBe(true);
    expect(result.logTail?.join("\n")).toMatch(/ETARGET|No matching version|notarget/i);
    expect(installedLabels(cacheDir, "portkey")).toEqual([]);
    expect(readdirSync(cacheDir).filter((e) => e.includes(".installing-"))).toEqual([]);
  }, 120_000);

  it("an unknown variant is not-run naming the known ones, without touching npm", async () => {
    const result = await portkey.install(
      { name: "portkey", version: "1.15.2", variant: "nope" },
      { cacheDir },
    );
    expect(result).toEqual({
      status: "not-run",
      reason: 'portkey@1.15.2+nope: unknown variant "nope" (known: locked)',
    });
  });

  it("GATECHECK_CACHE moves the cache", () => {
    expect(gatewayCacheDir({ GATECHECK_CACHE: "/tmp/gc" })).toBe("/tmp/gc/gateways");
  });
});
