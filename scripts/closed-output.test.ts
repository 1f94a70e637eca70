/**
 * Every command ends quietly, exit 0, when its reader stops early (`| head -1`): the bin in a
 * shell pipeline, as a user runs it.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSampleRuns } from "../results/html/testing/sample-runs.ts";
import { cliBundle } from "./cli-bundle.mjs";

const BIN = join(import.meta.dirname, "gatecheck.mjs");
const dir = mkdtempSync(join(tmpdir(), "gatecheck-closed-output-"));
const db = join(dir, "r.db");
beforeAll(async () => {
  writeSampleRuns(db);
  await cliBundle();
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The command's own exit status and stderr, its stdout read by `head -1` only. */
function throughHead(args: string): { status: string; err: string; first: string } {
  const run = spawnSync(
    "bash",
    [
      "-c",
      `"${process.execPath}" "${BIN}" ${args} 2>"${dir}/err" | head -1; echo "status \${PIPESTATUS[0]}"; cat "${dir}/err"`,
    ],
    { encoding: "utf8", timeout: 60_000 },
  );
  const [first = "", status = "", ...err] = run.stdout.split("\n");
  return { first, status, err: err.join("\n").trim() };
}

describe("a reader that stops early", { timeout: 120_000 }, () => {
  it("ends probes list and report (--json too) quietly, exit 0", () => {
    for (const args of ["probes list", `report --json --db "${db}"`, `report --db "${db}"`]) {
      const run = throughHead(args);
      expect(run.first, args).not.toBe("");
      expect(run.err, args).toBe("");
      expect(run.status, args).toBe("status 0");
    }
  });
});
