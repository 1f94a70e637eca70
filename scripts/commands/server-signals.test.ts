/**
 * The server commands (`mock`, `serve`) end cleanly on a stop signal, as the README says:
 * exit 0 when started as the bin, and, when started through `npx`, the server still stops,
 * flushing its records, whether the signal reaches the whole process group (Ctrl-C) or the
 * npx process alone (a supervisor's `kill`), and nothing of ours is left running.
 *
 * Each server gets a path under this test's own folder on its command line, so "nothing
 * left" is read from the process table for our processes only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../results/store.ts";
import { processesRunning } from "../../sweep/testing-sweep.ts";
import { cliBundle } from "../cli-bundle.mjs";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "scripts", "gatecheck.mjs");
const dir = mkdtempSync(join(tmpdir(), "gatecheck-signals-"));
const children: ChildProcess[] = [];
const db = join(dir, "serve.db");
beforeAll(async () => {
  openStore(db).close();
  await cliBundle();
}, 60_000);
afterAll(() => {
  for (const child of children) {
    if (child.pid && child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid, "SIGKILL");
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A server in a process group of its own, through npx or as the bin. */
function start(how: "npx" | "bin", args: string[]) {
  const [command, prefix] = how === "npx" ? ["npx", ["gatecheck"]] : [process.execPath, [BIN]];
  const child = spawn(command, [...prefix, ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  let err = "";
  child.stderr?.on("data", (d) => {
    err += d;
  });
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (d) => {
      out += d;
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", () => reject(new Error(`exited before listening: ${err}`)));
  });
  // "close", not "exit": through npx the server is npm's grandchild and still holds the pipe
  // when npm exits, so its last words ("stopped after N record(s)") arrive after "exit".
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal })),
  );
  return { child, url, exit, err: () => err };
}

/** Polls until nothing on the process table names `marker`, or gives up after ~10 s. */
async function goneFromProcessTable(marker: string): Promise<string[]> {
  for (let i = 0; i < 40; i++) {
    const left = processesRunning(marker);
    if (left.length === 0) return left;
    await new Promise((r) => setTimeout(r, 250));
  }
  return processesRunning(marker);
}

async function oneRecordedRequest(url: string): Promise<void> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

describe("mock and serve stop cleanly", { timeout: 300_000 }, () => {
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    it(`as the bin: mock and serve exit 0 on ${signal}`, async () => {
      const records = join(dir, `bin-${signal}.jsonl`);
      const mock = start("bin", ["mock", "--port", "0", "--record", records]);
      await oneRecordedRequest(await mock.url);
      const serve = start("bin", ["serve", "--port", "0", "--db", db]);
      await serve.url;
      process.kill(mock.child.pid!, signal);
      process.kill(serve.child.pid!, signal);
      expect(await mock.exit).toEqual({ code: 0, signal: null });
      expect(await serve.exit).toEqual({ code: 0, signal: null });
      expect(readFileSync(records, "utf8").trimEnd().split("\n")).toHaveLength(1);
    });
  }

  /** A mock and a serve through npx, each with a path of its own on the command line. */
  async function throughNpx(name: string) {
    const records = join(dir, `${name}.jsonl`);
    const mock = start("npx", ["mock", "--port", "0", "--record", records]);
    const url = await mock.url;
    await oneRecordedRequest(url);
    const marker = join(dir, `${name}.db`);
    openStore(marker).close();
    const serve = start("npx", ["serve", "--port", "0", "--db", marker]);
    await serve.url;
    return { mock, serve, url, records, marker };
  }

  async function expectAllStopped(servers: Awaited<ReturnType<typeof throughNpx>>) {
    await Promise.all([servers.mock.exit, servers.serve.exit]);
    expect(await goneFromProcessTable(servers.records)).toEqual([]);
    expect(await goneFromProcessTable(servers.marker)).toEqual([]);
    expect(servers.mock.err()).toContain("gatecheck mock: stopped after 1 record(s)");
    expect(readFileSync(servers.records, "utf8").trimEnd().split("\n")).toHaveLength(1);
  }

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`through npx, ${signal} to the process group (Ctrl-C is SIGINT): the mock flushes and stops, serve stops, nothing left`, async () => {
      const servers = await throughNpx(`group-${signal}`);
      for (const server of [servers.mock, servers.serve]) process.kill(-server.child.pid!, signal);
      await expectAllStopped(servers);
    });
  }

  it("through npx, SIGTERM to the npx process alone (a supervisor): the servers stop too, nothing left", async () => {
    // npm forwards the signal to its `sh -c`, which dies of it without passing it on.
    const servers = await throughNpx("npx-alone");
    for (const server of [servers.mock, servers.serve]) process.kill(server.child.pid!, "SIGTERM");
    await expectAllStopped(servers);
  });

  it("through npx, SIGINT to the npx process alone: nothing is orphaned, and SIGTERM then ends all", async () => {
    // npm forwards SIGINT to its `sh -c`, and a non-interactive sh holds SIGINT until its
    // child ends: the server never hears of it. npm stays, so the server is not orphaned.
    const servers = await throughNpx("npx-alone-int");
    process.kill(servers.mock.child.pid!, "SIGINT");
    await new Promise((r) => setTimeout(r, 1000));
    expect(servers.mock.child.exitCode).toBeNull();
    await oneRecordedRequest(servers.url);
    process.kill(servers.mock.child.pid!, "SIGTERM");
    process.kill(servers.serve.child.pid!, "SIGTERM");
    await Promise.all([servers.mock.exit, servers.serve.exit]);
    expect(await goneFromProcessTable(servers.records)).toEqual([]);
    expect(servers.mock.err()).toContain("gatecheck mock: stopped after 2 record(s)");
  });
});
