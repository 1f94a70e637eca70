import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rawRequest } from "../../mock-upstream/test-helpers.ts";
import { writeSampleRuns } from "../../results/html/testing/sample-runs.ts";

const root = new URL("../../", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "gatecheck-serve-cli-"));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) {
    // Only our own child, by PID (its own process group), if still running.
    if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGKILL");
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("gatecheck serve", () => {
  it("answers only requests whose Host is loopback or its own address (DNS rebinding)", async () => {
    const db = join(dir, "gc.db");
    writeSampleRuns(db);
    const child = spawn(
      process.execPath,
      ["scripts/gatecheck.mjs", "serve", "--port", "0", "--db", db],
      { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"] },
    );
    children.push(child);
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout?.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
      });
      child.once("exit", (code) => reject(new Error(`serve exited ${code}`)));
    });
    const url = line.slice("listening on ".length);
    const { port } = new URL(url);
    const evil = await rawRequest(url, {
      method: "GET",
      path: "/",
      headers: { host: `rebound.example:${port}` },
    });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body.toString()).error).toMatch(/DNS rebinding/);
    const own = await rawRequest(url, {
      method: "GET",
      path: "/",
      headers: { host: `localhost:${port}` },
    });
    expect(own.status).toBe(200);
    const stopped = new Promise((resolve) => child.once("exit", resolve));
    if (child.pid) process.kill(child.pid, "SIGTERM");
    expect(await stopped).toBe(0);
  });
});
