/**
 * The Go installer for real: a small module from the Go module proxy (the Go project's own
 * `hello` example, one package, no dependencies outside its module) is installed into its
 * GOBIN with its checksum verified and recorded, and runs; a module the proxy does not serve
 * is not-run with the proxy's words and the log kept.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { goBinary, installGoGateway } from "./go-install.ts";
import { readMarker } from "./install-dir.ts";

const root = mkdtempSync(join(tmpdir(), "gatecheck-go-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const cacheDir = join(root, "cache", "gateways");

const HELLO = {
  name: "hello",
  module: "golang.org/x/example/hello",
  package: "golang.org/x/example/hello",
  binary: "hello",
};
const HELLO_VERSION = "0.0.0-20250915201037-7f05d217867b";

describe("installGoGateway", () => {
  it("installs a module at its version into a GOBIN of its own, checksum recorded, and it runs", async () => {
    const lines: string[] = [];
    const spec = { name: "hello", version: HELLO_VERSION };
    const result = await installGoGateway(spec, HELLO, { cacheDir, report: (l) => lines.push(l) });
    expect(result, JSON.stringify(result)).toMatchObject({ status: "ok", cached: false });
    const dir = join(cacheDir, `hello@${HELLO_VERSION}`);
    expect(execFileSync(goBinary(dir, HELLO), [], { encoding: "utf8" })).toMatch(/Hello/);
    expect(readMarker(dir)?.pinnedBy).toMatch(
      new RegExp(`^golang\\.org/x/example/hello v${HELLO_VERSION} h1:[A-Za-z0-9+/]+=*$`),
    );
    expect(lines[0]).toMatch(
      /go install golang\.org\/x\/example\/hello@v0\.0\.0-.* checksums verified/,
    );
    expect(lines.at(-1)).toMatch(/installed in \d+ s \(golang\.org\/x\/example\/hello h1:/);
    const again = await installGoGateway(spec, HELLO, { cacheDir });
    expect(again).toMatchObject({ status: "ok", cached: true });
  }, 300_000);

  it("a module the proxy does not serve is not-run, with the proxy's answer in the reason and the log", async () => {
    const missing = {
      ...HELLO,
      name: "missing",
      module: "example.com/gatecheck/no-such-module",
      package: "example.com/gatecheck/no-such-module",
    };
    const result = await installGoGateway({ name: "missing", version: "1.0.0" }, missing, {
      cacheDir,
    });
    expect(result.status).toBe("not-run");
    if (result.status !== "not-run") return;
    expect(result.reason).toMatch(
      /the Go module proxy did not serve example\.com\/gatecheck\/no-such-module@v1\.0\.0: /,
    );
    expect(result.logPath).toBe(join(cacheDir, "missing@1.0.0.install.log"));
    expect(readFileSync(result.logPath ?? "", "utf8")).toMatch(/no-such-module/);
    expect(existsSync(join(cacheDir, "missing@1.0.0"))).toBe(false);
  }, 120_000);
});
