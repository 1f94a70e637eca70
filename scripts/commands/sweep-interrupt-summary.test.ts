/**
 * What an interrupted `gatecheck sweep` says and writes: the real bin in its own process
 * sweeping the `direct` gateway over enough probes that Ctrl-C lands in the first pass. Sent
 * after the first progress line, SIGINT must end in a summary that counts the cells judged
 * and the cells never run per column (never "ok, N cells" for cells that did not run), a
 * matrix whose scope counts the cells never run as not measured, and the resume command.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openStoreReadonly } from "../../results/store.ts";
import { INTERRUPTED_REASON } from "../../sweep/column-phases.ts";
import { cliBundle } from "../cli-bundle.mjs";

const BIN = join(import.meta.dirname, "..", "gatecheck.mjs");
const dir = mkdtempSync(join(tmpdir(), "gatecheck-interrupt-summary-"));
const killed: number[] = [];
beforeAll(() => cliBundle(), 60_000);
afterAll(() => {
  for (const pid of killed) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** The sweep, sent SIGINT once its first progress line about cells is on stderr. */
function sweepInterruptedEarly(db: string) {
  const child = spawn(
    process.execPath,
    [BIN, "sweep", "--gateways", "direct", "--probes", "oc-*,am-*", "--concurrency", "1"].concat([
      "--repeats",
      "1",
      "--db",
      db,
    ]),
    { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
  );
  if (child.pid) killed.push(child.pid);
  let out = "";
  let err = "";
  let sent = false;
  child.stdout.on("data", (d) => {
    out += d;
  });
  child.stderr.on("data", (d) => {
    err += d;
    if (!sent && /^direct@\S+: first pass \d+\/\d+ cells/m.test(err)) {
      sent = true;
      child.kill("SIGINT");
    }
  });
  return new Promise<{ code: number | null; out: string; err: string; sent: boolean }>((resolve) =>
    child.once("exit", (code) => resolve({ code, out, err, sent })),
  );
}

it("an interrupted sweep says what was done and not done, and its matrix counts the cells never run", async () => {
  const db = join(dir, "interrupted.db");
  const run = await sweepInterruptedEarly(db);
  expect(run.sent, run.err).toBe(true);
  expect(run.code, run.err).toBe(130);

  const line = /^(direct@\S+): interrupted: (\d+) of (\d+) cells judged, (\d+) never run/m.exec(
    run.out,
  );
  expect(line, run.out).not.toBeNull();
  const [, column, judged, planned, neverRun] = line!.map((x) => x) as string[];
  expect(Number(neverRun)).toBeGreaterThan(0);
  expect(Number(judged)).toBeGreaterThan(0);
  expect(Number(judged) + Number(neverRun)).toBeLessThanOrEqual(Number(planned));
  expect(run.out).not.toMatch(/: ok, \d+ cells/);
  expect(run.out).toContain(
    `done: ${judged} of ${planned} cells judged; not done: ${neverRun} cells never run`,
  );
  expect(run.out).toMatch(/^wall time: \d+(s|m\d\ds)$/m);
  const runId = /^run (\S+) interrupted$/m.exec(run.out)?.[1];
  expect(runId, run.out).toBeDefined();
  expect(run.out).toMatch(
    new RegExp(`^resume with: npx gatecheck sweep .*--resume ${runId}$`, "m"),
  );

  // The database holds the cells never run as not-run, with why.
  const store = openStoreReadonly(db);
  try {
    const cells = store.cells(runId!);
    expect(cells.length).toBe(Number(planned));
    const interrupted = cells.filter((c) => c.reason === INTERRUPTED_REASON);
    expect(interrupted.length).toBe(Number(neverRun));
    expect(interrupted.every((c) => c.verdict === "not-run" && c.column === column)).toBe(true);
  } finally {
    store.close();
  }

  // The matrix's scope counts them as not measured, with the reason.
  const matrix = readFileSync(/^matrix: (.+)$/m.exec(run.out)?.[1] ?? "", "utf8");
  const scope = matrix.slice(matrix.indexOf("## Scope"));
  expect(scope).toMatch(/- \*\*Cells not measured\*\*: [\d,]+ \(never counted as clean\)/);
  const row = new RegExp(`\\| ${column} \\| \\S+ \\| ${neverRun} \\| \\d+ \\| interrupted: `);
  expect(scope).toMatch(row);
}, 180_000);
