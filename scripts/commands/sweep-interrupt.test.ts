/**
 * Ctrl-C, SIGTERM and SIGHUP sent to a real `gatecheck sweep` (the bin, in its own process),
 * at several points of the run: in the first cells, once the repeats start, once the control
 * legs start. Each time the sweep must exit 130 with the run `interrupted`, store no cell as
 * `error`, leave no gateway running, and print a resume command; running that command must
 * end the run `done` with the same verdict, k of N and control verdict in every cell as a run
 * that was never interrupted.
 *
 * The gateway under test is the deliberately lossy fixture (drops `stop`, rewrites
 * `temperature`) behind its native Chat route and an Anthropic route it forwards unchanged:
 * silent defects on the Anthropic route get a control leg over Chat, so all three phases run.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cellKeyString } from "../../results/records.ts";
import { openStoreReadonly } from "../../results/store.ts";
import { processesRunning } from "../../sweep/testing-sweep.ts";
import { cliBundle } from "../cli-bundle.mjs";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "scripts", "gatecheck.mjs");
const dir = mkdtempSync(join(tmpdir(), "gatecheck-interrupt-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  rmSync(dir, { recursive: true, force: true });
});

// A copy of the script under this test's folder: its command line is then this test's own,
// so "no gateway left" is checked on our processes, not on other tests' running at once.
const SCRIPT = join(dir, "lossy-gateway.mjs");
copyFileSync(join(ROOT, "sweep", "fixtures", "lossy-gateway.mjs"), SCRIPT);
const GATEWAY = join(dir, "lossy-two-routes.json");
writeFileSync(
  GATEWAY,
  JSON.stringify({
    name: "lossy",
    version: "1.0.0",
    description: "the sweep's lossy fixture behind its Chat route and an Anthropic one",
    command: ["node", SCRIPT, "--port={port}", "--upstream={mockUrl}"],
    readiness: { path: "/", timeoutMs: 15000 },
    routes: [
      {
        id: "openai-chat->openai-chat",
        client: "openai-chat",
        backend: "openai-chat",
        ingressPath: "/v1/chat/completions",
        headers: { authorization: "Bearer {apiKey}" },
        native: true,
        status: "works",
      },
      {
        // The proxy forwards any body to the Chat backend as it is: an Anthropic request
        // read as Chat loses `stop_sequences`, a silent defect with a control leg over Chat.
        id: "anthropic-messages->openai-chat",
        client: "anthropic-messages",
        backend: "openai-chat",
        ingressPath: "/v1/messages",
        headers: { "x-api-key": "{apiKey}", "anthropic-version": "2023-06-01" },
        status: "works",
      },
    ],
  }),
);

const FLAGS = [
  "--gateways",
  `direct,${GATEWAY}`,
  "--probes",
  "oc-stop-string,oc-temperature,oc-seed,am-stop-sequences,am-temperature,am-top-p",
  "--repeats",
  "3",
  "--concurrency",
  "2",
];

/** Each stored cell's outcome, keyed by the cell. */
function verdicts(db: string, runId: string): Map<string, string> {
  const store = openStoreReadonly(db);
  try {
    return new Map(
      store
        .cells(runId)
        .map((c) => [
          cellKeyString(c),
          `${c.verdict} ${c.determinism}/${c.runs} control:${c.controlVerdict ?? "-"}`,
        ]),
    );
  } finally {
    store.close();
  }
}

function runStatus(db: string, runId: string): string | undefined {
  const store = openStoreReadonly(db);
  try {
    return store.getRun(runId)?.status;
  } finally {
    store.close();
  }
}

/** The sweep in its own process; `signal` is sent when a stderr line matches `when`. */
function interruptedSweep(db: string, when: RegExp, signal: NodeJS.Signals) {
  const child = spawn(process.execPath, [BIN, "sweep", ...FLAGS, "--db", db], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  let err = "";
  let sent = false;
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    err += d;
    if (!sent && when.test(err)) {
      sent = true;
      child.kill(signal);
    }
  });
  return new Promise<{ code: number | null; out: string; err: string; sent: boolean }>((resolve) =>
    child.once("exit", (code) => resolve({ code, out, err, sent })),
  );
}

let reference: Map<string, string>;
beforeAll(async () => {
  await cliBundle();
  const db = join(dir, "reference.db");
  const run = spawnSync(process.execPath, [BIN, "sweep", ...FLAGS, "--db", db, "--run-id", "ref"], {
    cwd: dir,
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  reference = verdicts(db, "ref");
  // The reference exercises every phase: repeated cells, and control legs that ran.
  const outcomes = [...reference.values()];
  expect(outcomes.some((o) => / [23]\/3 /.test(o))).toBe(true);
  expect(outcomes.some((o) => !o.endsWith("control:-"))).toBe(true);
  expect(outcomes.some((o) => o.startsWith("error"))).toBe(false);
}, 120_000);

describe("an interrupted sweep, resumed", { timeout: 300_000 }, () => {
  const points: [string, RegExp, NodeJS.Signals][] = [
    ["Ctrl-C in the first cells", /lossy@1\.0\.0: first pass \d+\/\d+ cells/, "SIGINT"],
    ["Ctrl-C when the repeats start", /lossy@1\.0\.0: repeating/, "SIGINT"],
    ["SIGTERM when the control legs start", /lossy@1\.0\.0: control legs/, "SIGTERM"],
    ["SIGHUP when the repeats start", /lossy@1\.0\.0: repeating/, "SIGHUP"],
  ];
  for (const [name, when, signal] of points) {
    it(`${name}: exit 130, no error cell, resumes to the uninterrupted verdicts`, async () => {
      const db = join(dir, `${signal}-${name.length}.db`);
      const first = await interruptedSweep(db, when, signal);
      expect(first.sent, first.err).toBe(true);
      expect(first.code, first.err).toBe(130);
      expect(first.err).not.toMatch(/crashed|SIGKILL/);
      expect(processesRunning(SCRIPT)).toEqual([]);
      const runId = /^run (\S+) interrupted$/m.exec(first.out)?.[1];
      expect(runId, first.out).toBeDefined();
      expect(runStatus(db, runId!)).toBe("interrupted");
      const partial = verdicts(db, runId!);
      expect([...partial.values()].filter((o) => o.startsWith("error"))).toEqual([]);

      const hint = /^resume with: npx gatecheck (.+)$/m.exec(first.out)?.[1];
      expect(hint, first.out).toContain(`--resume ${runId}`);
      const resumed = spawnSync("sh", ["-c", `"${process.execPath}" "${BIN}" ${hint}`], {
        cwd: dir,
        encoding: "utf8",
      });
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(runStatus(db, runId!)).toBe("done");
      expect(verdicts(db, runId!)).toEqual(reference);
      expect(processesRunning(SCRIPT)).toEqual([]);
    });
  }
});
