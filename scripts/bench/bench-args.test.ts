import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const BENCH = import.meta.dirname;
const ROOT = join(BENCH, "..", "..");

/** Modules the scripts import, not scripts themselves. */
const BENCH_MODULES: ReadonlySet<string> = new Set([
  "bench-args.ts",
  "priority.ts",
  "verdict-snapshot-lines.ts",
]);
/** Every benchmark script: each one a user runs by hand (`npx tsx scripts/bench/FILE`). */
const SCRIPTS = readdirSync(BENCH).filter(
  (f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !BENCH_MODULES.has(f),
);

async function run(script: string, args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", join(BENCH, script), ...args],
      { cwd: ROOT, encoding: "utf8", timeout: 60_000 },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

describe("the benchmark scripts' flags", { timeout: 240_000 }, () => {
  it("finds the scripts", () => {
    expect(SCRIPTS).toEqual(expect.arrayContaining(["mock-load.ts", "mock-path.ts", "run-all.ts"]));
    expect(SCRIPTS.length).toBeGreaterThanOrEqual(10);
  });

  it("--help prints the usage and exits 0; an unknown flag exits 2 with the usage", async () => {
    // Two at a time: the machine has two cores.
    for (let i = 0; i < SCRIPTS.length; i += 2) {
      await Promise.all(
        SCRIPTS.slice(i, i + 2).map(async (script) => {
          const help = await run(script, ["--help"]);
          expect(help.code, `${script} --help: ${help.stderr}`).toBe(0);
          expect(help.stdout).toMatch(/^Usage: /);
          const bad = await run(script, ["--no-such-flag"]);
          expect(bad.code, script).toBe(2);
          expect(bad.stderr).toContain("--no-such-flag");
          expect(bad.stderr).toContain("Usage: ");
          expect(bad.stdout).toBe("");
        }),
      );
    }
  });

  it("a value the script cannot use exits 2 before anything runs", async () => {
    const cases: [string, string[], string][] = [
      ["mock-load.ts", ["--rounds", "0"], "--rounds: expected a number ≥ 1"],
      ["mock-load.ts", ["--servers", "mock,nginx"], '--servers: no server "nginx"'],
      ["mock-load.ts", ["--regimes", "both"], "--regimes: expected distinct or shared"],
      ["mock-load.ts", ["--before-root", "/nonexistent"], "is not a gatecheck checkout"],
      ["mock-path.ts", ["--batch", "many"], '--batch: expected a number ≥ 1, got "many"'],
      ["sweep-bench.ts", ["--rescore", "never"], "--rescore: expected both, thread or workers"],
      ["verdict-snapshot.ts", [], "--out FILE is required"],
      ["verdict-snapshot-diff.ts", ["one.txt"], "expected two snapshot files"],
    ];
    for (const [script, args, message] of cases) {
      const result = await run(script, args);
      expect(result.code, `${script} ${args.join(" ")}`).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stdout).toBe("");
    }
  });
});
