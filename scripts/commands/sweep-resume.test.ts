/**
 * `--resume RUN` sweeps what the run swept: the selection stored with the run (gateways,
 * probes, repeats, ...), not the flags' defaults; a selection flag that contradicts it is
 * exit 2 naming the flag and the stored value, nothing written. The real bin, as a user runs it.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStoreReadonly } from "../../results/store.ts";
import { cliBundle } from "../cli-bundle.mjs";

const BIN = join(import.meta.dirname, "..", "gatecheck.mjs");
const dir = mkdtempSync(join(tmpdir(), "gatecheck-sweep-resume-"));
const db = join(dir, "r.db");
beforeAll(() => cliBundle(), 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sweep(args: string[]) {
  const run = spawnSync(process.execPath, [BIN, "sweep", "--db", db, "--json", ...args], {
    cwd: dir,
    encoding: "utf8",
    timeout: 240_000,
    killSignal: "SIGKILL",
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

function cellsOf(runId: string) {
  const store = openStoreReadonly(db);
  try {
    return store
      .cells(runId)
      .map((c) => `${c.column} ${c.probeId} ${c.mode}`)
      .sort();
  } finally {
    store.close();
  }
}

describe("gatecheck sweep --resume", { timeout: 300_000 }, () => {
  it("sweeps the run's stored selection, and refuses a flag that contradicts it", () => {
    const first = sweep([
      ...["--gateways", "direct", "--probes", "am-temperature", "--modes", "non-stream"],
      ...["--repeats", "1", "--run-id", "sel-1"],
    ]);
    expect(first.code, first.err).toBe(0);
    const before = cellsOf("sel-1");
    expect(before).toEqual(["direct@0 am-temperature non-stream"]);

    // No selection flag: the stored one, not every gateway, all probes, both modes.
    const resumed = sweep(["--resume", "sel-1", "--minutes", "0.2"]);
    expect(resumed.code, resumed.err).toBe(0);
    const result = JSON.parse(resumed.out) as { columns: { label: string }[]; status: string };
    expect(result.columns.map((c) => c.label)).toEqual(["direct@0"]);
    expect(result.status).toBe("done");
    expect(cellsOf("sel-1")).toEqual(before);

    // The same value again is fine; another one is refused, naming both.
    expect(sweep(["--resume", "sel-1", "--gateways", "direct", "--repeats", "1"]).code).toBe(0);
    for (const [flag, value, stored] of [
      ["--gateways", "portkey", '"direct"'],
      ["--repeats", "5", '"1"'],
      ["--modes", "stream", '"non-stream"'],
      ["--dialects", "openai-chat", "not given"],
    ] as const) {
      const refused = sweep(["--resume", "sel-1", flag, value]);
      expect(refused.err).toContain(
        `${flag} ${value} contradicts run sel-1, which was swept with ${flag} ${stored}`,
      );
      expect(refused.err).not.toMatch(/\n\s+at /);
      expect(refused.code).toBe(2);
    }
    expect(cellsOf("sel-1")).toEqual(before);
  });
});
