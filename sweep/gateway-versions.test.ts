/**
 * Versions as columns, through the command line as a user types it (docs/gateways.md):
 * `gatecheck sweep --gateways litellm@1.96.2,litellm@1.83.9` installs and runs both releases
 * side by side, one column each, so a change between releases shows in one matrix. The two
 * cells asserted differ between those releases in the forwarded bytes: 1.96.2 strips
 * `output_config.effort` on its native Anthropic passthrough where 1.83.9 carried it, and
 * 1.96.2 carries `stop_sequences` to Ollama where 1.83.9 dropped them.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REPO_ROOT } from "../gateways/cache.ts";
import type { CellRecord } from "../results/records.ts";
import { openStore } from "../results/store.ts";
import type { SweepResult } from "./run-sweep.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-versions-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let result: SweepResult;
let cells: CellRecord[] = [];

beforeAll(async () => {
  const args = [
    join(REPO_ROOT, "scripts", "gatecheck.mjs"),
    "sweep",
    "--gateways",
    "litellm@1.96.2,litellm@1.83.9",
    "--probes",
    "am-output-config-effort,am-stop-sequences",
    "--dialects",
    "anthropic-messages",
    "--modes",
    "non-stream",
    "--repeats",
    "1",
    "--db",
    join(dir, "gc.db"),
    "--out",
    dir,
    "--json",
  ];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => {
    stdout += b;
  });
  child.stderr.on("data", (b: Buffer) => {
    stderr += b;
  });
  const code = await new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
  expect(code, stderr).toBe(0);
  result = JSON.parse(stdout) as SweepResult;
  const store = openStore(result.dbPath);
  try {
    cells = store.cells(result.runId);
  } finally {
    store.close();
  }
}, 20 * 60_000);

const cell = (column: string, route: string, probe: string) =>
  cells.find((c) => c.column === column && c.routeId === route && c.probeId === probe);

it("gives one column per version, each installed and run", () => {
  expect(result.columns.map((c) => [c.label, c.status, c.reason ?? ""])).toEqual([
    ["litellm@1.96.2", "ok", ""],
    ["litellm@1.83.9", "ok", ""],
  ]);
  const matrix = readFileSync(result.matrixPath, "utf8");
  expect(matrix).toContain("litellm@1.96.2");
  expect(matrix).toContain("litellm@1.83.9");
});

it("shows output_config.effort dropped on the native Anthropic route by 1.96.2 and carried by 1.83.9", () => {
  const route = "anthropic-messages->anthropic-messages";
  expect(cell("litellm@1.96.2", route, "am-output-config-effort")).toMatchObject({
    verdict: "dropped",
    reason: 'output_config.effort: "low" → absent',
  });
  expect(cell("litellm@1.83.9", route, "am-output-config-effort")).toMatchObject({
    verdict: "preserved",
  });
});

it("shows stop_sequences to Ollama dropped by 1.83.9 and carried by 1.96.2", () => {
  const route = "anthropic-messages->ollama";
  expect(cell("litellm@1.83.9", route, "am-stop-sequences")).toMatchObject({
    verdict: "dropped",
    reason: 'stop_sequences: ["STOPPROBE"] → absent',
  });
  expect(cell("litellm@1.96.2", route, "am-stop-sequences")).toMatchObject({
    verdict: "preserved",
  });
});
