/**
 * A sweep killed with SIGKILL (as the out-of-memory killer does) runs no code of its own
 * afterwards, yet its gateways end with it: the watchdog (gateways/watchdog.mjs) holds the
 * other end of a pipe from the sweep and kills every gateway group when the pipe closes.
 * The stand-in gateway forks a child into its group; neither may survive.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { REPO_ROOT } from "../gateways/cache.ts";
import { pidAlive } from "../gateways/process-group.ts";
import { FAKE_GATEWAY_MJS, pidFromLog } from "../gateways/testing/fake-gateway.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-sigkill-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function gatewayLog(out: string): Promise<string> {
  const until = Date.now() + 60_000;
  for (;;) {
    const runs = join(out, "runs");
    for (const run of existsSync(runs) ? readdirSync(runs) : []) {
      const log = join(runs, run, "fake@1.0.0", "gateway.log");
      if (existsSync(log)) return log;
    }
    if (Date.now() > until) throw new Error(`no gateway log under ${runs}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it("a sweep killed with SIGKILL leaves no gateway process running", async () => {
  const file = join(dir, "forking-gateway.json");
  writeFileSync(
    file,
    JSON.stringify({
      name: "fake",
      version: "1.0.0",
      command: ["node", FAKE_GATEWAY_MJS, "--port={port}", "--upstream={mockUrl}", "--fork-child"],
      readiness: { path: "/", timeoutMs: 20000 },
      routes: [
        {
          id: "openai-chat->openai-chat",
          client: "openai-chat",
          backend: "openai-chat",
          ingressPath: "/v1/chat/completions",
          headers: { authorization: "Bearer {apiKey}" },
          model: "{model}",
          status: "works",
        },
      ],
    }),
  );
  const out = join(dir, "out");
  const sweep = spawn(
    process.execPath,
    [
      join(REPO_ROOT, "scripts", "gatecheck.mjs"),
      "sweep",
      "--gateways",
      file,
      "--dialects",
      "openai-chat",
      "--db",
      join(out, "gc.db"),
      "--out",
      out,
    ],
    { cwd: REPO_ROOT, stdio: "ignore" },
  );
  const exited = new Promise<string | null>((r) => sweep.once("exit", (_c, signal) => r(signal)));
  const log = await gatewayLog(out);
  const leader = await pidFromLog(log, /fake gateway pid (\d+)/, 30_000);
  const child = await pidFromLog(log, /child pid (\d+)/);
  expect(pidAlive(leader)).toBe(true);
  sweep.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  const until = Date.now() + 15_000;
  while ((pidAlive(leader) || pidAlive(child)) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
  }
  expect({ leader: pidAlive(leader), child: pidAlive(child) }).toEqual({
    leader: false,
    child: false,
  });
}, 120_000);
