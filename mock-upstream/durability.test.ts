/**
 * The record file's guarantee (docs/mock.md, Records): a reply leaves the mock only once its
 * record's line is in the file, so a mock killed with SIGKILL mid-load has the record of every
 * reply a client saw, small or ~10 MB; a restarted mock never appends onto a torn line.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newNonce, startMock } from "./index.ts";
import { Recorder } from "./recorder.ts";

const root = new URL("../", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "gatecheck-durability-"));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) {
    // Only our own children, by PID (their own process group), if still running.
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      process.kill(-child.pid, "SIGKILL");
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

async function startCli(file: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ["scripts/gatecheck.mjs", "mock", "--port", "0", "--record", file],
    {
      cwd: root,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      const line = /listening on (\S+)\n/.exec(out)?.[1];
      if (line) resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`mock exited ${code} before listening`)));
  });
  return { child, url };
}

function body(nonce: string, padding = 0): string {
  return JSON.stringify({
    model: "gpt-4o-mini",
    messages: [{ role: "user", content: `${nonce} ${"x".repeat(padding)}` }],
  });
}

/** Nonces of the lines that parse; a torn last line is counted apart. */
function nonces(file: string): { found: Set<string>; torn: number } {
  const found = new Set<string>();
  let torn = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line === "") continue;
    try {
      const nonce = (JSON.parse(line) as { nonce?: string }).nonce;
      if (nonce) found.add(nonce);
    } catch {
      torn++;
    }
  }
  return { found, torn };
}

describe("the record file under SIGKILL", () => {
  it("has the record of every reply a client saw, small and ~10 MB, and a restart never appends onto a torn line", async () => {
    const file = join(dir, "killed.jsonl");
    const { child, url } = await startCli(file);
    const answered: string[] = [];
    let answeredLarge = 0;
    let stop = false;
    const client = async (padding: number) => {
      while (!stop) {
        const nonce = newNonce();
        try {
          const res = await fetch(`${url}/v1/chat/completions`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: body(nonce, padding),
          });
          // The status line has arrived: the client has seen this reply.
          answered.push(nonce);
          if (padding > 0) answeredLarge++;
          await res.arrayBuffer();
        } catch {
          return; // the mock is gone
        }
      }
    };
    const small = Array.from({ length: 16 }, () => client(0));
    const large = Array.from({ length: 2 }, () => client(10 * 1024 * 1024));
    // Killed mid-load, once some of each kind were answered (the machine may be slow).
    for (let i = 0; i < 400 && (answered.length < 60 || answeredLarge < 2); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    if (child.pid) process.kill(-child.pid, "SIGKILL");
    await exited;
    stop = true;
    await Promise.all([...small, ...large]);
    expect(answered.length).toBeGreaterThan(60);
    expect(answeredLarge).toBeGreaterThanOrEqual(2);
    const { found, torn } = nonces(file);
    expect(torn).toBeLessThanOrEqual(1);
    const lost = answered.filter((n) => !found.has(n));
    expect(lost).toEqual([]);

    // Restarted on the same file: its records start on a line of their own.
    const again = await startCli(file);
    const nonce = newNonce();
    await (
      await fetch(`${again.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: body(nonce),
      })
    ).arrayBuffer();
    const stopped = new Promise((resolve) => again.child.once("exit", resolve));
    if (again.child.pid) process.kill(again.child.pid, "SIGTERM");
    await stopped;
    const after = nonces(file);
    expect(after.found.has(nonce)).toBe(true);
    expect(after.torn).toBe(torn);
    expect(readFileSync(file, "utf8").endsWith("\n")).toBe(true);
  });

  it("ends a torn last line before the first new record", async () => {
    const file = join(dir, "torn.jsonl");
    writeFileSync(file, '{"seq":1}\n{"seq":2,"path":"/v1/chat/compl');
    const recorder = new Recorder(file);
    expect(recorder.endedTornLine).toBe(true);
    recorder.addLine(3, undefined, '{"seq":3}\n');
    await recorder.close();
    expect(readFileSync(file, "utf8")).toBe(
      '{"seq":1}\n{"seq":2,"path":"/v1/chat/compl\n{"seq":3}\n',
    );
    const whole = new Recorder(file);
    expect(whole.endedTornLine).toBe(false);
    await whole.close();
  });
});

describe("records as a client sees them", () => {
  const send = (url: string, nonce: string) =>
    fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: body(nonce),
    });

  it("has a record readable the moment its reply arrived, through records() and the API", async () => {
    const m = await startMock({ recordFile: join(dir, "visible.jsonl") });
    try {
      for (let i = 0; i < 20; i++) {
        const nonce = newNonce();
        await (await send(m.url, nonce)).arrayBuffer();
        expect(m.records({ nonce }).map((r) => r.nonce)).toEqual([nonce]);
        const api = (await (await fetch(`${m.url}/__gatecheck/records?nonce=${nonce}`)).json()) as {
          records: unknown[];
        };
        expect(api.records).toHaveLength(1);
        // And in the file already, before close().
        expect(readFileSync(join(dir, "visible.jsonl"), "utf8")).toContain(nonce);
      }
    } finally {
      await m.close();
    }
  });

  it("streams the records endpoint in pieces that join to the whole list", async () => {
    const m = await startMock({ memoryLimits: { maxRecords: 3000 } });
    try {
      const big = "y".repeat(2000);
      await Promise.all(
        Array.from({ length: 1500 }, (_, i) =>
          fetch(`${m.url}/v1/chat/completions`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              model: "m",
              messages: [{ role: "user", content: `${i}${big}` }],
            }),
          }).then((r) => r.arrayBuffer()),
        ),
      );
      const res = await fetch(`${m.url}/__gatecheck/records`);
      expect(res.headers.get("content-length")).toBeNull();
      const reader = res.body?.getReader();
      let pieces = 0;
      let text = "";
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = (await reader?.read()) ?? { done: true, value: undefined };
        if (done) break;
        pieces++;
        text += decoder.decode(value, { stream: true });
      }
      expect(pieces).toBeGreaterThan(1);
      const records = (JSON.parse(text) as { records: { seq: number }[] }).records;
      expect(records.map((r) => r.seq)).toEqual(m.records().map((r) => r.seq));
      expect(records).toHaveLength(1500);
    } finally {
      await m.close();
    }
  });

  it("keeps answering when the file cannot be opened, says so in health, and close rejects", async () => {
    const m = await startMock({ recordFile: join(dir, "no-such-dir", "r.jsonl") });
    await (await send(m.url, newNonce())).arrayBuffer();
    expect(m.records()).toHaveLength(1);
    const health = (await (await fetch(`${m.url}/__gatecheck/health`)).json()) as {
      ok: boolean;
      recorderError: string;
    };
    expect(health.ok).toBe(false);
    expect(health.recorderError).toMatch(/ENOENT/);
    await expect(m.close()).rejects.toThrow(/ENOENT/);
  });
});
