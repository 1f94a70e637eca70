import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startMock } from "../../mock-upstream/index.ts";

const root = new URL("../../", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "gatecheck-mock-cli-"));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) {
    // Only our own children, by PID (their own process group), if still running.
    if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGKILL");
  }
  rmSync(dir, { recursive: true, force: true });
});

function startCli(args: string[]) {
  const child = spawn(process.execPath, ["scripts/gatecheck.mjs", "mock", ...args], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (d) => {
      stdout += d;
      const nl = stdout.indexOf("\n");
      if (nl >= 0) resolve(stdout.slice(0, nl));
    });
    child.once("exit", (code) => reject(new Error(`exited ${code} before listening: ${stderr}`)));
  });
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, firstLine, exit, stderr: () => stderr };
}

describe("gatecheck mock", () => {
  it("prints its address first, and SIGTERM flushes every record before exit 0", async () => {
    const file = join(dir, "records.jsonl");
    const cli = startCli(["--port", "0", "--record", file, "--name", "cli"]);
    const line = await cli.firstLine;
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.slice("listening on ".length);
    const statuses = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        const res = await fetch(`${url}/v1/messages`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": "sk-ant-api03-secretsecret" },
          body: JSON.stringify({
            model: "c",
            max_tokens: 1,
            messages: [{ role: "user", content: `n${i}` }],
          }),
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));
    process.kill(cli.child.pid!, "SIGTERM");
    expect(await cli.exit).toBe(0);
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain("secretsecret");
    const lines = text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(300);
    expect(lines.every((r) => r.listener === "cli")).toBe(true);
  });

  it("refuses a bad flag with exit 2 and a message", async () => {
    const cli = startCli(["--port", "70000"]);
    await expect(cli.firstLine).rejects.toThrow(/--port must be an integer from 0 to 65535/);
    expect(await cli.exit).toBe(2);
    const persona = startCli(["--port", "0", "--persona", "nope"]);
    await expect(persona.firstLine).rejects.toThrow(/unknown persona "nope" \(known: openai/);
    const staged = startCli(["--port", "0", "--staged-limit", "0"]);
    await expect(staged.firstLine).rejects.toThrow(/--staged-limit must be an integer from 1/);
  });

  it("--upstream with --record writes every forwarded exchange to the record file; --staged-limit bounds staging", async () => {
    const provider = await startMock({ name: "provider" });
    try {
      const file = join(dir, "through.jsonl");
      const cli = startCli([
        "--port",
        "0",
        "--upstream",
        provider.url,
        "--record",
        file,
        "--staged-limit",
        "1000",
      ]);
      const url = (await cli.firstLine).slice("listening on ".length);
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: "Bearer sk-proj-secretsecretsecret",
        },
        body: JSON.stringify({
          model: "m",
          messages: [{ role: "user", content: "gc-00000000000000c1" }],
        }),
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      process.kill(cli.child.pid!, "SIGTERM");
      expect(await cli.exit).toBe(0);
      const text = readFileSync(file, "utf8");
      expect(text).not.toContain("secretsecret");
      const records = text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ nonce: "gc-00000000000000c1", reply: { status: 200 } });

      const bounded = startCli(["--port", "0", "--staged-limit", "1000"]);
      const mockUrl = (await bounded.firstLine).slice("listening on ".length);
      const big = await fetch(`${mockUrl}/__gatecheck/replies`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ reply: { body: { text: "x".repeat(2000) } } }),
      });
      expect(big.status).toBe(413);
      process.kill(bounded.child.pid!, "SIGTERM");
      expect(await bounded.exit).toBe(0);
    } finally {
      await provider.close();
    }
  });
});
