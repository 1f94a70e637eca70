/**
 * How long the `gatecheck` command takes from process start to exit for `--help` and for
 * `check` of one recorded exchange: the bin as installed (the esbuild bundle,
 * scripts/cli-bundle.mjs) against the same sources through tsx, the way the bin ran before
 * the bundle, measured alternately in the same minute. Optionally an older checkout's bin
 * (`--baseline DIR`, e.g. a `git worktree` of an earlier commit sharing this node_modules),
 * and `npx gatecheck` beside `npx` starting nothing but `node -e 0` (npx's own cost, which no
 * change of ours can lower). Target (issue 19): from the bundle, `--help` and `check` of one
 * file each under 0.5 s, median of 5.
 *
 *   npx tsx scripts/bench/cli-startup.ts [--rounds 5] [--baseline DIR] [--npx]
 */
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cliBundle } from "../cli-bundle.mjs";

const ROOT = join(import.meta.dirname, "..", "..");
const EXCHANGE = join(
  ROOT,
  "probes",
  "lens",
  "fixtures",
  "anthropic-to-chat-non-stream-lossy.json",
);

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    baseline: { type: "string" },
    npx: { type: "boolean", default: false },
  },
});
const rounds = Number(values.rounds);

/** A way to start the CLI: the command and arguments before gatecheck's own. */
interface Launch {
  name: string;
  command: string;
  prefix: string[];
  cwd: string;
}

const launches: Launch[] = [
  {
    name: "bundle (bin)",
    command: process.execPath,
    prefix: [join(ROOT, "scripts", "gatecheck.mjs")],
    cwd: ROOT,
  },
  {
    name: "tsx, same sources",
    command: process.execPath,
    prefix: ["--import", "tsx", join(ROOT, "scripts", "cli.ts")],
    cwd: ROOT,
  },
];
if (values.baseline) {
  launches.push({
    name: `baseline ${values.baseline}`,
    command: process.execPath,
    prefix: [join(values.baseline, "scripts", "gatecheck.mjs")],
    cwd: values.baseline,
  });
}
if (values.npx) {
  launches.push({ name: "npx gatecheck", command: "npx", prefix: ["gatecheck"], cwd: ROOT });
}

const tasks: [string, string[]][] = [
  ["--help", ["--help"]],
  ["check one file", ["check", EXCHANGE]],
];

function timeOnce(command: string, args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const run = spawnSync(command, args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0)
    throw new Error(`${command} ${args.join(" ")}: exit ${run.status}\n${run.stderr}`);
  return ms;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

await cliBundle(); // built before timing: the first start after a change builds it
const times = new Map<string, number[]>();
const floor: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const launch of launches) {
    for (const [task, args] of tasks) {
      const key = `${launch.name}|${task}`;
      times.set(key, [
        ...(times.get(key) ?? []),
        timeOnce(launch.command, [...launch.prefix, ...args], launch.cwd),
      ]);
    }
  }
  if (values.npx) floor.push(timeOnce("npx", ["--no", "--", "node", "-e", "0"], ROOT));
}

console.log(
  `load average before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
console.log(`median of ${rounds} (ms; min–max)`);
for (const [key, xs] of times) {
  const [launch, task] = key.split("|");
  console.log(
    `${launch?.padEnd(28)} ${task?.padEnd(16)} ${median(xs).toFixed(0).padStart(5)}  (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`,
  );
}
if (values.npx) {
  console.log(
    `${"npx --no -- node -e 0".padEnd(45)} ${median(floor).toFixed(0).padStart(5)}  (npx's own cost)`,
  );
}
