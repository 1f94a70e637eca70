/**
 * `npm run bench`: every benchmark of the project in turn, each in its own process (so one
 * bench's heap and JIT state never colour the next), with its own defaults. Each prints its
 * figures beside a baseline measured in the same run; see the README's "Measured
 * performance" for what each target is. Exits 1 if any benchmark fails to run (a missed
 * target is a figure, not a failure).
 * Its flags: `--help`.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { benchArgs, usageError } from "./bench-args.ts";

/** Name, script, and the arguments it runs with here. */
const BENCHES: readonly (readonly [string, string, readonly string[]])[] = [
  ["check", "check-bench.ts", []],
  ["mock", "mock-load.ts", []],
  ["results", "results-bench.ts", []],
  ["rescore-judge", "rescore-judge-bench.ts", []],
  ["sweep", "sweep-bench.ts", []],
  ["cli-startup", "cli-startup.ts", []],
];

const USAGE = `
Usage: npm run bench [-- --only NAMES]

  --only a,b    only these benchmarks: ${BENCHES.map(([n]) => n).join(", ")}
  -h, --help    this text (each benchmark's own flags: npx tsx scripts/bench/FILE --help)
`;

const { values } = benchArgs(USAGE, { only: { type: "string" } });
const only = values.only?.split(",").map((s) => s.trim());
const unknown = only?.filter((name) => !BENCHES.some(([n]) => n === name)) ?? [];
if (unknown.length > 0) {
  usageError(
    USAGE,
    `--only: unknown benchmark ${unknown.join(", ")}; known: ${BENCHES.map(([n]) => n).join(", ")}`,
  );
}

const failed: string[] = [];
for (const [name, script, args] of BENCHES) {
  if (only && !only.includes(name)) continue;
  console.log(`\n=== ${name} (scripts/bench/${script}) ===`);
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", join(import.meta.dirname, script), ...args],
    { stdio: "inherit" },
  );
  if (run.status !== 0) failed.push(`${name} (exit ${run.status ?? run.signal})`);
}
if (failed.length > 0) {
  console.error(`\nbenchmarks that did not run through: ${failed.join(", ")}`);
  process.exit(1);
}
