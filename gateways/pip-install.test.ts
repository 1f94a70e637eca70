/**
 * The Python installer for real, on a one-package lock (six, a 11 KB wheel from PyPI): a
 * wrong hash is refused by pip and becomes not-run with its log kept and nothing marked
 * installed; the right one installs, is marked, and the next call finds it cached.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { INSTALL_MARKER } from "./install-dir.ts";
import { installPythonGateway } from "./pip-install.ts";
import type { PythonGateway } from "./python-lock.ts";

const SIX_WHEEL_SHA256 = "8abb2f1d86890a2dfb989f9a77cfcfd3e47c2a354b01111771326f8aa26e0254";
const root = mkdtempSync(join(tmpdir(), "gatecheck-pip-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function gatewayWithLock(name: string, sha256: string): PythonGateway {
  const lockDir = join(root, `locks-${name}`);
  mkdirSync(lockDir, { recursive: true });
  const pin = { requirement: "six==1.16.0", resolvedAsOf: "2021-06-01T00:00:00Z", python: "3.8" };
  writeFileSync(
    join(lockDir, `${name}@1.16.0.txt`),
    `# input: six==1.16.0\nsix==1.16.0 \\\n    --hash=sha256:${sha256}\n`,
  );
  return { name, distribution: "six", pins: { "1.16.0": pin }, lockDir };
}

describe("installPythonGateway", () => {
  const cacheDir = join(root, "cache", "gateways");

  it("refuses a version without a committed lock, naming the command that writes one", async () => {
    const result = await installPythonGateway(
      { name: "tiny", version: "9.9.9" },
      gatewayWithLock("tiny", SIX_WHEEL_SHA256),
      { cacheDir },
    );
    expect(result).toMatchObject({ status: "not-run" });
    if (result.status === "not-run") {
      expect(result.reason).toMatch(
        /no hash lock committed .*locked: 1\.16\.0.*write-lock\.ts tiny@9\.9\.9/,
      );
    }
  });

  it("a file whose hash differs from the lock is refused: not-run, log kept, nothing installed", async () => {
    const lines: string[] = [];
    const result = await installPythonGateway(
      { name: "tampered", version: "1.16.0" },
      gatewayWithLock("tampered", "0".repeat(64)),
      { cacheDir, report: (l) => lines.push(l) },
    );
    expect(result.status).toBe("not-run");
    if (result.status !== "not-run") return;
    expect(result.reason).toMatch(/install failed \(pip (download|install) exited 1\)/);
    expect(result.logPath).toBe(join(cacheDir, "tampered@1.16.0.install.log"));
    expect(readFileSync(result.logPath ?? "", "utf8")).toMatch(/HASHES|hash/i);
    expect(existsSync(join(cacheDir, "tampered@1.16.0"))).toBe(false);
    expect(lines[0]).toMatch(/tampered@1\.16\.0: installing six==1\.16\.0/);
  }, 120_000);

  it("installs from the lock, says so with the time it took, and is cached the next time", async () => {
    const gateway = gatewayWithLock("tiny", SIX_WHEEL_SHA256);
    const lines: string[] = [];
    const first = await installPythonGateway({ name: "tiny", version: "1.16.0" }, gateway, {
      cacheDir,
      report: (l) => lines.push(l),
    });
    expect(first, JSON.stringify(first)).toMatchObject({
      status: "ok",
      cached: false,
      version: "1.16.0",
    });
    expect(lines.at(-1)).toMatch(/^tiny@1\.16\.0: installed in \d+ s$/);
    expect(existsSync(join(cacheDir, "tiny@1.16.0", INSTALL_MARKER))).toBe(true);
    const again = await installPythonGateway({ name: "tiny", version: "1.16.0" }, gateway, {
      cacheDir,
    });
    expect(again).toMatchObject({ status: "ok", cached: true });
  }, 120_000);
});
