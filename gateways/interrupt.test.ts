import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "./cache.ts";
import { pidAlive } from "./process-group.ts";
import { pidFromLog } from "./testing/fake-gateway.ts";

const root = mkdtempSync(join(tmpdir(), "gatecheck-int-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function interruptLaunch(mode: "abort" | "reaper") {
  const workdir = join(root, mode);
  const helper = spawn(
    process.execPath,
    ["--import", "tsx", join(REPO_ROOT, "gateways/testing/launch-then-wait.ts"), workdir, mode],
    { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  helper.stdout.on("data", (c: Buffer) => {
    out += c.toString();
  });
  helper.stderr.on("data", (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
    helper.once("exit", (code, signal) => r({ code, signal })),
  );
  const log = join(workdir, "gateway.log");
  const leader = await pidFromLog(log, /fake gateway pid (\d+)/, 20_000);
  const child = await pidFromLog(log, /child pid (\d+)/);
  expect(pidAlive(leader)).toBe(true);
  helper.kill("SIGINT");
  const end = await exited;
  // Give an orphan every chance to show itself before we look.
  await new Promise((r) => setTimeout(r, 300));
  return { end, out, leader, child };
}

describe("SIGINT during a launch", () => {
  it("with the caller's abort wired to SIGINT: the launch ends not-run and no child survives", async () => {
    const { end, out, leader, child } = await interruptLaunch("abort");
    expect(end.code).toBe(0);
    expect(out).toContain('"status":"not-run"');
    expect(out).toContain("interrupted");
    expect(pidAlive(leader)).toBe(false);
    expect(pidAlive(child)).toBe(false);
  });

  it("with no handler at all: the reaper kills the group and the process still dies of SIGINT", async () => {
    const { end, leader, child } = await interruptLaunch("reaper");
    expect(end.signal).toBe("SIGINT");
    expect(pidAlive(leader)).toBe(false);
    expect(pidAlive(child)).toBe(false);
  });
});
