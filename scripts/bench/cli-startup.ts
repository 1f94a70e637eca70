/**
 * How long the `gatecheck` command takes from process start to exit for `--help` and for
 * `check` of one recorded exchange: the bin as installed (the esbuild bundle,
 * scripts/cli-bundle.mjs) against the same sources through tsx, the way the bin ran before
 * the bundle, measured alternately in the same minute. Optionally an older checkout's bin
 * (`--baseline DIR`, e.g. a `git worktree` of an earlier commit sharing this node_modules),
 * and `npx gatecheck` beside `npx` starting nothing but `node -e 0` (npx's own cost, which no
 * change of ours can lower). Target (issue 19): from the bundle, `--help` and `check` of one
 * file each under 0.5 s, median of 5.
 * Its flags: `--help`.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { LENS_FIXTURES } from "../../probes/lens/fixture-values.ts";
import { cliBundle } from "../cli-bundle.mjs";
import { benchArgs, numberFlag, usageError } from "./bench-args.ts";
import { BENCH_PRIORITY, raisePriority } from "./priority.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const EXCHANGE = join(LENS_FIXTURES, "anthropic-to-chat-non-stream-lossy.json");

const USAGE = `
Usage: npx tsx scripts/bench/cli-startup.ts [options]

  --rounds N      starts of each command, alternating (default 5)
  --baseline DIR  also an older checkout's bin (a \`git worktree\` sharing this node_modules)
  --npx           also \`npx gatecheck\`, beside npx starting nothing but \`node -e 0\`
  --priority N    the nice value to run at (default ${BENCH_PRIORITY}: ahead of other work)
  -h, --help      this text
`;

const { values } = benchArgs(USAGE, {
  rounds: { type: "string", default: "5" },
  baseline: { type: "string" },
  npx: { type: "boolean", default: false },
  priority: { type: "string", default: String(BENCH_PRIORITY) },
});
const rounds = numberFlag(USAGE, "rounds", values.rounds, { min: 1, integer: true });
if (values.baseline && !existsSync(join(values.baseline, "scripts", "gatecheck.mjs"))) {
  usageError(USAGE, `--baseline: ${values.baseline} is not a gatecheck checkout`);
}
const PRIORITY = raisePriority(
  numberFlag(USAGE, "priority", values.priority, { min: -20, integer: true }),
);

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

/** `/usr/bin/time` reports a child's CPU time, which other processes' load does not inflate. */
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

interface Timing {
  wallMs: number;
  cpuMs?: number;
}

function timeOnce(command: string, args: string[], cwd: string): Timing {
  const [file, argv] = TIME
    ? [TIME, ["-f", "gatecheck-bench %U %S", command, ...args]]
    : [command, args];
  const start = process.hrtime.bigint();
  const run = spawnSync(file, argv, { cwd, stdio: ["ignore", "ignore", "pipe"] });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0) {
    throw new Error(`${command} ${args.join(" ")}: exit ${run.status}\n${run.stderr}`);
  }
  const cpu = /gatecheck-bench (\S+) (\S+)\s*$/.exec(String(run.stderr));
  return cpu ? { wallMs, cpuMs: (Number(cpu[1]) + Number(cpu[2])) * 1000 } : { wallMs };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

await cliBundle(); // built before timing: the first start after a change builds it
const times = new Map<string, Timing[]>();
const floor: Timing[] = [];
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
    .join(" ")}; ${PRIORITY}`,
);
console.log(`median of ${rounds}, ms: wall (min–max)${TIME ? ", CPU (user + system)" : ""}`);
const row = (name: string, xs: Timing[]) => {
  const wall = xs.map((x) => x.wallMs);
  const cpu = xs.flatMap((x) => (x.cpuMs === undefined ? [] : [x.cpuMs]));
  const cpuText = cpu.length > 0 ? `  CPU ${median(cpu).toFixed(0)}` : "";
  console.log(
    `${name.padEnd(45)} ${median(wall).toFixed(0).padStart(5)}  (${Math.min(...wall).toFixed(0)}–${Math.max(...wall).toFixed(0)})${cpuText}`,
  );
};
for (const [key, xs] of times) {
  const [launch, task] = key.split("|");
  row(`${launch?.padEnd(28)} ${task}`, xs);
}
if (values.npx) row("npx --no -- node -e 0 (npx's own cost)", floor);
