/**
 * The servers of the mock's load benchmark, each in a process (group) of its own, pinned to
 * one core where `taskset` works: the mock as users run it (`gatecheck mock --record`), the
 * bare `node:http` baseline, CopilotKit's aimock (journal on, as it ships) and
 * @dwmkerr/mock-llm. Each prints or serves a URL on 127.0.0.1; each is stopped by its PID.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BARE = fileURLToPath(new URL("./bare-server.mjs", import.meta.url));

export interface RunningServer {
  name: string;
  url: string;
  pid: number;
  /** The record file the server writes (the mock), for the lines that reached it. */
  recordFile?: string;
  /** A gatecheck mock: it keeps records in memory, so a prefill fills that memory. */
  keepsRecords?: boolean;
  stop(): Promise<void>;
}

/** The CPU (user + system, every thread) a process has used, in µs, from /proc. */
export function processCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
  // utime and stime are fields 14 and 15, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen({ host: "127.0.0.1", port: 0 }, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function launch(
  pin: string[],
  command: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; output: () => string } {
  const [bin, ...args] = [...pin, ...command] as [string, ...string[]];
  const child = spawn(bin, args, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let output = "";
  child.stdout?.on("data", (d) => {
    output += d;
  });
  child.stderr?.on("data", (d) => {
    output += d;
  });
  return { child, output: () => output };
}

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>) {
  for (let i = 0; i < 600; i++) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not start in 30 s`);
}

async function answers(url: string): Promise<true | undefined> {
  try {
    await fetch(url);
    return true;
  } catch {
    return undefined;
  }
}

/**
 * Every server still running, so that a benchmark stopped by a signal (or ending any way)
 * leaves none behind: each is its own process group, ended by its PID.
 */
const running = new Set<ChildProcess>();

function killAll(signal: NodeJS.Signals): void {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    }
  }
}

process.once("exit", () => killAll("SIGKILL"));
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    killAll("SIGTERM");
    process.exit(130);
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || !child.pid) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid, "SIGTERM");
    const timer = setTimeout(() => {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGKILL");
    }, 10_000);
    await exited;
    clearTimeout(timer);
  };
}

function started(name: string, url: string, child: ChildProcess, recordFile?: string) {
  if (!child.pid) throw new Error(`${name} has no pid`);
  return { name, url, pid: child.pid, stop: stopper(child), ...(recordFile ? { recordFile } : {}) };
}

/** A server that prints `listening on URL` first (the mock's CLI, the bare server). */
async function listening(name: string, pin: string[], command: string[], recordFile?: string) {
  const { child, output } = launch(pin, command);
  const url = await waitFor(name, () => /listening on (http:\S+)/.exec(output())?.[1]);
  return started(name, url, child, recordFile) as RunningServer;
}

/**
 * `gatecheck mock`, with `--record FILE` when `recordFile` is given, else without (as a
 * gateway author often starts it: records in memory only). `root`: another checkout's mock
 * (a `git worktree` of an older commit), for before/after.
 */
export async function startGatecheckMock(
  pin: string[],
  recordFile: string | undefined,
  root = ROOT,
): Promise<RunningServer> {
  const cli = join(root, "scripts/gatecheck.mjs");
  const record = recordFile === undefined ? [] : ["--record", recordFile];
  const server = await listening(
    "mock",
    pin,
    [process.execPath, cli, "mock", "--port", "0", ...record],
    recordFile,
  );
  server.keepsRecords = true;
  return server;
}

export interface BareReply {
  headers: [string, string][];
  body?: Buffer;
  events?: Buffer[];
}

export function startBare(pin: string[], dir: string, reply: BareReply): Promise<RunningServer> {
  const file = join(dir, `bare-${reply.events ? "sse" : "json"}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      headers: reply.headers,
      body: reply.body?.toString("base64"),
      events: reply.events?.map((e) => e.toString("base64")),
    }),
  );
  const mode = reply.events ? "sse" : "json";
  return listening(`bare-${mode}`, pin, [process.execPath, BARE, "--reply", file, "--mode", mode]);
}

/** A dev dependency's entry file, or an error saying how to get it (not a 30 s wait). */
function installed(pkg: string, file: string): string {
  const path = join(ROOT, "node_modules", pkg, file);
  if (!existsSync(path)) {
    throw new Error(
      `${pkg} is not installed at ${path}: it is a dev dependency of this benchmark; run npm ci in ${ROOT}`,
    );
  }
  return path;
}

/** aimock answering every chat request with the same text; its journal on, as it ships. */
export async function startAimock(pin: string[], dir: string, text: string) {
  const fixtures = join(dir, "aimock-fixtures.json");
  writeFileSync(
    fixtures,
    JSON.stringify({ fixtures: [{ match: {}, response: { content: text } }] }),
  );
  const port = await freePort();
  const cli = installed("@copilotkit/aimock", "dist/cli.js");
  const args = ["-p", String(port), "-h", "127.0.0.1", "-f", fixtures, "--log-level", "silent"];
  const { child } = launch(pin, [process.execPath, cli, ...args]);
  const url = `http://127.0.0.1:${port}`;
  await waitFor("aimock", () => answers(url));
  return started("aimock", url, child) as RunningServer;
}

/** @dwmkerr/mock-llm with its default rule (echo the user's message). */
export async function startMockLlm(pin: string[]) {
  const port = await freePort();
  const main = installed("@dwmkerr/mock-llm", "dist/main.js");
  const { child } = launch(pin, [process.execPath, main], {
    HOST: "127.0.0.1",
    PORT: String(port),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor("mock-llm", () => answers(url));
  return started("mock-llm", url, child) as RunningServer;
}
