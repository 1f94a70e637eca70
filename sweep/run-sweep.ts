/**
 * The main job: every selected gateway column × route × probe × mode, judged, repeated
 * where it matters, stored, and rendered. Columns run concurrently, each with its own mock
 * listener, so one gateway's crash or hang never stalls another's cells.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { execa } from "execa";
import type { Mode } from "../dialects/dialect.ts";
import type { GatewayAdapter, GatewaySpec } from "../gateways/adapter.ts";
import { gatewayLabel } from "../gateways/adapter.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import { insideRoot } from "../results/inside-root.ts";
import { cellKeyString, type DoneCell } from "../results/records.ts";
import { requireRunId } from "../results/run-id.ts";
import { writeRunOutputs } from "../results/run-outputs.ts";
import { newRunId, openStore } from "../results/store.ts";
import { storedProbe } from "./cell-record.ts";
import { type ColumnResult, runColumn } from "./column-run.ts";
import { Deadline } from "./deadline.ts";
import { JudgeThread } from "./judge-thread.ts";
import { type ProgressSink, silentProgress } from "./progress.ts";
import type { Shard } from "./shard.ts";
import { StorageStop } from "./storage-stop.ts";

export interface SweepColumn {
  adapter: GatewayAdapter;
  spec: GatewaySpec;
  /** A gateway the user runs: attach to this URL, never launch or stop it (`--attach`). */
  attachUrl?: string;
  /** Where this column's mock listens (an attached gateway points at it); default: a free port. */
  mockPort?: number;
}

export interface SweepOptions {
  columns: readonly SweepColumn[];
  probes: readonly Probe[];
  modes: readonly Mode[];
  repeats: number;
  minutes: number;
  concurrency: number;
  shard?: Shard;
  /** Continue this run instead of starting a new one. */
  resume?: string;
  /** Start the run under this id (shards of one sweep share one, so `merge` joins them). */
  runId?: string;
  dbPath: string;
  /** Where MATRIX.md, summary.json and the run's work folders go. */
  outDir: string;
  attemptTimeoutMs: number;
  /** Time kept back for writing the report. */
  reportReserveMs?: number;
  cacheDir?: string;
  /** The arguments as the user gave them, stored with the run. */
  args: unknown;
  progress?: ProgressSink;
  signal?: AbortSignal;
  /**
   * Judge in a worker thread (judge-thread.ts). Default: when the sweep plans at least
   * `JUDGE_WORKER_MIN_CELLS` cells (probes × modes × columns), below which starting the
   * worker costs more than it saves. The verdicts are the same either way.
   */
  judgeInWorker?: boolean;
}

export interface SweepResult {
  runId: string;
  status: "done" | "interrupted";
  columns: ColumnResult[];
  matrixPath: string;
  summaryPath: string;
  htmlPath: string;
  dbPath: string;
  /** Attempts the judging worker judged (0: all were judged in this thread). */
  judgedInWorker: number;
}

/** The model the mock is asked for; any name works, this one is easy to spot in records. */
export const BACKEND_MODEL = "gatecheck-mock-model";
/** The route key clients send where a route needs one (redacted on disk like any key). */
export const ROUTE_API_KEY = "sk-gatecheck-route-key-0000000000000000";

/**
 * Below this many planned cells the sweep judges in its own thread: the worker takes 0.3 to
 * 1 s to build and load on the shared 2-core machine, about what judging 200 cells costs.
 */
export const JUDGE_WORKER_MIN_CELLS = 200;

function wantsJudgeWorker(options: SweepOptions): boolean {
  const cells = options.probes.length * options.modes.length * options.columns.length;
  return options.judgeInWorker ?? cells >= JUDGE_WORKER_MIN_CELLS;
}

export async function runSweep(options: SweepOptions): Promise<SweepResult> {
  const progress = options.progress ?? silentProgress;
  // A full or failing disk stops the sweep as Ctrl-C does (storage-stop.ts).
  const stop = new StorageStop(options.signal ?? new AbortController().signal);
  const signal = stop.signal;
  // `git rev-parse` is a process start: let it run while the database opens.
  const sha = options.resume ? undefined : gitSha();
  const runId = requireRunId(options.resume ?? options.runId ?? newRunId(), "the run id");
  // The run's folder, checked before anything is written: its columns' folders go inside.
  const workRoot = insideRoot(join(resolve(options.outDir), "runs"), runId);
  mkdirSync(dirname(options.dbPath), { recursive: true });
  const store = openStore(options.dbPath);
  try {
    const stored = new Map<string, DoneCell>();
    if (options.resume) {
      store.requireRun(options.resume);
      store.setRunStatus(options.resume, "running");
      // Cells that never ran (budget, gateway not run) are run again on resume; the columns
      // also run again those whose phases did not all run (resume-cells.ts).
      for (const cell of store.doneCells(options.resume)) {
        if (cell.verdict !== "not-run") stored.set(cellKeyString(cell), cell);
      }
    } else {
      store.beginRun({
        id: runId,
        startedAt: new Date().toISOString(),
        gatecheckVersion: packageVersion(),
        ...(await (sha ?? gitSha())),
        args: options.args,
        ...(options.shard ? { shard: `${options.shard.index}/${options.shard.count}` } : {}),
      });
    }
    store.putProbes(options.probes.map(storedProbe));
    const reserveMs = options.reportReserveMs ?? Math.min(30_000, options.minutes * 6_000);
    const deadline = new Deadline(options.minutes * 60_000, reserveMs);
    const writer = store.cellWriter();
    const judging = wantsJudgeWorker(options)
      ? new JudgeThread({ onFailure: (message) => progress.note("sweep", message) })
      : undefined;
    let columns: ColumnResult[];
    let closingJudge: Promise<void> | undefined;
    try {
      columns = await Promise.all(
        options.columns.map((column) => {
          const label = gatewayLabel(column.spec);
          return runColumn(
            { ...column, label },
            {
              runId,
              probes: options.probes,
              modes: options.modes,
              ...(options.shard ? { shard: options.shard } : {}),
              repeats: options.repeats,
              concurrency: options.concurrency,
              attemptTimeoutMs: options.attemptTimeoutMs,
              backendModel: BACKEND_MODEL,
              apiKey: ROUTE_API_KEY,
              workRoot,
              ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
              deadline,
              signal,
            },
            { store, writer, progress, stored, ...(judging ? { judge: judging.judge } : {}) },
          ).catch((error: Error): ColumnResult => {
            progress.note(label, `failed: ${error.message}`);
            if (stop.caught(error))
              return { label, status: "error", reason: error.message, cells: 0 };
            store.putGatewayRun({
              runId,
              gateway: column.spec.name,
              version: column.spec.version,
              column: label,
              status: "error",
              reason: `the sweep failed on this column: ${error.message}`,
            });
            return { label, status: "error", reason: error.message, cells: 0 };
          });
        }),
      );
    } finally {
      stop.attempt(() => writer.close());
      // The worker stops while the outputs are written: nothing below judges.
      closingJudge = judging?.close();
    }
    const status = signal.aborted ? "interrupted" : "done";
    stop.attempt(() => store.finishRun(runId, status));
    const paths = stop.attempt(() => writeRunOutputs(store, runId, options.outDir));
    await closingJudge;
    stop.end(store, runId, options.dbPath);
    if (!paths) throw new Error("unreachable: the outputs failed without a storage failure");
    return {
      runId,
      status,
      columns,
      matrixPath: paths.matrix,
      summaryPath: paths.summary,
      htmlPath: paths.html,
      dbPath: options.dbPath,
      judgedInWorker: judging?.judged.worker ?? 0,
    };
  } finally {
    progress.close();
    store.close();
  }
}

function packageVersion(): string {
  const text = readFileSync(new URL("../package.json", import.meta.url), "utf8");
  return (JSON.parse(text) as { version: string }).version;
}

async function gitSha(): Promise<{ gitSha?: string }> {
  const result = await execa("git", ["rev-parse", "HEAD"], {
    cwd: new URL("..", import.meta.url),
    reject: false,
  });
  return result.exitCode === 0 && result.stdout ? { gitSha: result.stdout.trim() } : {};
}
