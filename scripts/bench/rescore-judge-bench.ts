/**
 * The judging half of `gatecheck rescore`: `judgeStoredAttempt` (parse the stored JSON
 * columns, `exchangeFromWire`, `judgeAttempt`) over every stored attempt of a run, held in
 * memory, so no database cost is counted. Stream and non-stream attempts are timed apart
 * (a stream attempt reads two event streams), each pass by this process's CPU time and by
 * the clock, beside a baseline timed in the same passes: `JSON.parse` of the same three
 * stored columns, so a figure taken on a busy machine can still be compared. Issue #7's
 * target is 20,000 rescored attempts/s on this 2-core machine.
 *
 * `--profile DIR` (see `--help`) is this script run again under V8's sampler, which is all a profile is:
 * `node --cpu-prof --cpu-prof-dir DIR --import tsx scripts/bench/rescore-judge-bench.ts ...`.
 * It writes one .cpuprofile per thread (tsx's loader thread has its own); the main thread's,
 * the one with the judging, is named after it.
 *
 * The database is opened read-only; the newest finished run is judged unless `--run` names one.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import type { ClientDialect, Dialect, Mode } from "../../dialects/dialect.ts";
import type { AttemptPhase } from "../../results/records.ts";
import { judgeStoredAttempt, type RescoreJob } from "../../sweep/rescore-judge.ts";
import { benchArgs, numberFlag, usageError } from "./bench-args.ts";

const MODES = ["stream", "non-stream"] as const satisfies readonly Mode[];
const ROOT = join(import.meta.dirname, "..", "..");

const USAGE = `
Usage: npx tsx scripts/bench/rescore-judge-bench.ts [options]

  --db FILE        the results database, opened read-only (default results/gatecheck.db)
  --run ID         the run to judge (default: the newest finished one)
  --passes N       timed passes (default 7)
  --only MODE      stream or non-stream attempts alone
  --profile DIR    run again under V8's sampler, writing .cpuprofile files to DIR
  -h, --help       this text
`;

const { values } = benchArgs(USAGE, {
  db: { type: "string", default: join(ROOT, "results", "gatecheck.db") },
  profile: { type: "string" },
  run: { type: "string" },
  passes: { type: "string", default: "7" },
  only: { type: "string" },
});
const passes = numberFlag(USAGE, "passes", values.passes, { min: 1, integer: true });
const only = values.only;
if (only !== undefined && !(MODES as readonly string[]).includes(only)) {
  usageError(USAGE, `--only: expected one of ${MODES.join(", ")}, got ${only}`);
}

/** One stored attempt with its cell's route and its probe's field, in write order. */
const ATTEMPTS_SQL = `SELECT a.probe_id, a.mode, a.phase, a.attempt_no, a.exchange,
       c.client_dialect, c.backend_dialect, p.field
  FROM attempts a
  JOIN cells c ON c.run_id = a.run_id AND c."column" = a."column" AND c.route_id = a.route_id
              AND c.probe_id = a.probe_id AND c.mode = a.mode
  LEFT JOIN probes p ON p.probe_id = c.probe_id AND p.definition_hash = c.definition_hash
  WHERE a.run_id = ?`;

type AttemptRow = [
  probeId: string,
  mode: Mode,
  phase: AttemptPhase,
  attemptNo: number,
  exchange: string,
  client: ClientDialect,
  backend: Dialect,
  field: string | null,
];

/**
 * The jobs of a run, built as sweep/rescore.ts builds them, split by mode. The database is
 * read through plain SQL on the `attempts` view (schema version 5 and later: the stored
 * `exchange`), opened read-only, so it is never migrated; open an older database once with a
 * writer (any `gatecheck` command that writes, or `rescore`) to measure it.
 */
function loadJobs(
  dbPath: string,
  runId: string | undefined,
): { run: string; jobs: Record<Mode, RescoreJob[]> } {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const run =
      runId ??
      (db
        .prepare("SELECT id FROM runs WHERE status = 'done' ORDER BY started_at DESC, id DESC")
        .pluck()
        .get() as string | undefined);
    if (run === undefined) throw new Error(`${dbPath}: no finished run to judge`);
    const rows = db.prepare(ATTEMPTS_SQL).raw(true).all(run) as AttemptRow[];
    if (rows.length === 0) throw new Error(`${dbPath}: run ${run} has no attempts in a cell`);
    const jobs: Record<Mode, RescoreJob[]> = { stream: [], "non-stream": [] };
    for (const row of rows) {
      const [probeId, mode, phase, attemptNo, exchange] = row;
      jobs[mode].push({
        ref: `attempt (${probeId} ${mode} ${phase} #${attemptNo}) of run ${run}`,
        client: row[5],
        backend: row[6],
        mode,
        phase,
        field: row[7] ?? "",
        exchange,
      });
    }
    return { run, jobs };
  } finally {
    db.close();
  }
}

/** The baseline: what parsing the stored exchange's JSON alone costs. */
function parseColumns(job: RescoreJob): unknown {
  return JSON.parse(job.exchange);
}

interface Pass {
  cpuUs: number;
  wallUs: number;
}

function timePass(jobs: readonly RescoreJob[], work: (job: RescoreJob) => unknown): Pass {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const job of jobs) work(job);
  const wallUs = (performance.now() - started) * 1000;
  const used = process.cpuUsage(cpu);
  return { cpuUs: used.user + used.system, wallUs };
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const us = (total: number, n: number): string => (total / n).toFixed(1).padStart(7);
const perSecond = (totalUs: number, n: number): string =>
  Math.round((n * 1e6) / totalUs)
    .toLocaleString("en-US")
    .padStart(7);

/** The same measurement in a child process under V8's sampler; prints the main thread's profile. */
function runProfiled(dir: string): void {
  const out = resolve(dir);
  const args = [
    "--db",
    resolve(values.db),
    "--passes",
    String(passes),
    ...(values.run === undefined ? [] : ["--run", values.run]),
    ...(only === undefined ? [] : ["--only", only]),
  ];
  const self = fileURLToPath(import.meta.url);
  const child = spawnSync(
    process.execPath,
    ["--cpu-prof", "--cpu-prof-dir", out, "--import", "tsx", self, ...args],
    { cwd: ROOT, stdio: "inherit" },
  );
  if (child.status !== 0) {
    throw new Error(`the profiled run failed: ${child.error?.message ?? `exit ${child.status}`}`);
  }
  // V8 names a profile CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile; thread 0 is the main one.
  const main = readdirSync(out).filter((f) => f.includes(`.${child.pid}.0.`));
  console.log(`profile of the judging thread: ${main.map((f) => join(out, f)).join(", ")}`);
}

function measure(): void {
  const { run, jobs } = loadJobs(values.db, values.run);
  const modes = MODES.filter((m) => only === undefined || m === only);
  const loadBefore = loadavg();
  console.log(
    `run ${run} of ${values.db}: ${jobs.stream.length} stream and ${jobs["non-stream"].length} non-stream attempts, ${passes} passes each`,
  );

  // One untimed pass: the first would otherwise pay for compiling every reader and judge.
  for (const mode of modes) for (const job of jobs[mode]) judgeStoredAttempt(job);

  for (const mode of modes) {
    const list = jobs[mode];
    if (list.length === 0) continue;
    const judged: Pass[] = [];
    const parsed: Pass[] = [];
    // Baseline and judging alternate pass by pass, so a burst of load hits both alike.
    for (let i = 0; i < passes; i++) {
      parsed.push(timePass(list, parseColumns));
      judged.push(timePass(list, judgeStoredAttempt));
    }
    const n = list.length;
    const line = (what: string, xs: Pass[]) => {
      const cpu = xs.map((p) => p.cpuUs);
      const wall = xs.map((p) => p.wallUs);
      console.log(
        `  ${what.padEnd(20)} CPU µs/attempt median ${us(median(cpu), n)} best ${us(Math.min(...cpu), n)}` +
          ` | clock µs/attempt median ${us(median(wall), n)} best ${us(Math.min(...wall), n)}` +
          ` | per CPU-second ${perSecond(median(cpu), n)}`,
      );
    };
    console.log(`${mode} (${n} attempts):`);
    line("baseline JSON.parse", parsed);
    line("judgeStoredAttempt", judged);
    const ratio = median(judged.map((p) => p.cpuUs)) / median(parsed.map((p) => p.cpuUs));
    console.log(
      `  judging costs ${ratio.toFixed(1)}× parsing the same columns (CPU time, medians)`,
    );
  }

  const loadAfter = loadavg();
  const fmt = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");
  console.log(`load average ${fmt(loadBefore)} before, ${fmt(loadAfter)} after`);
}

if (values.profile === undefined) measure();
else runProfiled(values.profile);
