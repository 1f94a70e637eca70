import { dirname } from "node:path";
import type { Command } from "commander";
import { CLIENT_DIALECTS } from "../../dialects/dialect.ts";
import { GatewayError } from "../../gateways/adapter.ts";
import { BUILTIN_ADAPTERS, findAdapter, resolveGateway } from "../../gateways/registry.ts";
import { ResultsError } from "../../results/results-error.ts";
import { createProgress, silentProgress } from "../../sweep/progress.ts";
import { runSweep, type SweepColumn } from "../../sweep/run-sweep.ts";
import {
  defaultColumns,
  MODES,
  parseList,
  refuseDuplicateColumns,
  SelectionError,
  selectProbes,
  withAttached,
} from "../../sweep/select.ts";
import { parseShard } from "../../sweep/shard.ts";
import { SweepStorageError } from "../../sweep/storage-stop.ts";
import { durationFlag, MINUTES, MS } from "../duration-flag.ts";
import { CliError, EXIT } from "../exit-codes.ts";
import { runIdArg } from "../run-id-arg.ts";
import { loadProbes, userProbesOf } from "./probes.ts";
import { checkRunIds, checkSweepPaths, checkUserProbes } from "./sweep-preflight.ts";
import { sweepSummary } from "./sweep-progress.ts";
import { resumeCommand } from "./sweep-resume-hint.ts";
import { withStoredSelection } from "./sweep-resume-selection.ts";

interface SweepFlags {
  gateways?: string;
  attach?: string;
  attachMockPort: string;
  probes?: string;
  probesDir?: string;
  dialects?: string;
  modes: string;
  repeats: string;
  minutes: string;
  concurrency: string;
  timeoutMs: string;
  shard?: string;
  resume?: string;
  runId?: string;
  db: string;
  /** Default: the database's folder, so `--db X` never writes over another run's outputs. */
  out?: string;
  json?: boolean;
}

/** The signals that stop a sweep the way Ctrl-C does (SIGHUP: the terminal went away). */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

function positiveInt(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new CliError(`${flag} takes a whole number >= 1, got "${text}"`);
  return n;
}

async function columnsFrom(flag: string | undefined): Promise<SweepColumn[]> {
  if (!flag) return defaultColumns(BUILTIN_ADAPTERS);
  const columns: SweepColumn[] = [];
  for (const text of flag
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    columns.push(await resolveGateway(text));
  }
  return refuseDuplicateColumns(columns);
}

export async function sweepAction(given: SweepFlags, command: Command): Promise<void> {
  const flags = withStoredSelection(given, command);
  const outDir = flags.out ?? dirname(flags.db);
  let options: Parameters<typeof runSweep>[0];
  try {
    const dialects = flags.dialects
      ? parseList(flags.dialects, CLIENT_DIALECTS, "--dialects")
      : undefined;
    const loaded = await loadProbes(flags.probesDir);
    const probes = selectProbes(loaded, {
      ...(flags.probes ? { glob: flags.probes } : {}),
      ...(dialects ? { dialects } : {}),
    });
    options = {
      columns: flags.attach
        ? withAttached(
            await columnsFrom(flags.gateways),
            flags.attach,
            findAdapter,
            positiveInt(flags.attachMockPort, "--attach-mock-port"),
          )
        : await columnsFrom(flags.gateways),
      probes,
      modes: parseList(flags.modes, MODES, "--modes"),
      repeats: positiveInt(flags.repeats, "--repeats"),
      minutes: durationFlag(flags.minutes, "--minutes", MINUTES),
      concurrency: positiveInt(flags.concurrency, "--concurrency"),
      attemptTimeoutMs: durationFlag(flags.timeoutMs, "--timeout-ms", MS),
      ...(flags.shard ? { shard: parseShard(flags.shard) } : {}),
      ...(flags.resume !== undefined ? { resume: runIdArg(flags.resume, "--resume") } : {}),
      // Shards of one sweep share a run id so `merge` makes one run of them.
      ...(flags.runId !== undefined ? { runId: runIdArg(flags.runId, "--run-id") } : {}),
      dbPath: flags.db,
      outDir,
      args: { ...flags, out: outDir },
    };
    checkSweepPaths(flags.db, outDir);
    await checkRunIds(flags.db, options);
    if (flags.probesDir) checkUserProbes(userProbesOf(probes), flags.probesDir);
  } catch (error) {
    if (error instanceof SelectionError || error instanceof GatewayError)
      throw new CliError(error.message);
    if (error instanceof Error && error.message.startsWith("--shard"))
      throw new CliError(error.message);
    throw error;
  }
  const startedAt = Date.now();
  const progress = flags.json
    ? silentProgress
    : createProgress({
        tty: Boolean(process.stderr.isTTY),
        write: (line) => process.stderr.write(`${line}\n`),
        budgetMs: options.minutes * 60_000,
      });
  // Through the progress display: a line written past it would break its bars on a TTY.
  const say = (message: string) =>
    flags.json
      ? process.stderr.write(`\ngatecheck: ${message}\n`)
      : progress.note("gatecheck", message);
  const controller = new AbortController();
  const stop = () => {
    if (controller.signal.aborted) {
      say("still stopping: cells in flight end within --timeout-ms");
      return;
    }
    say("stopping: finishing cells in flight, stopping gateways, writing results");
    controller.abort();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  try {
    // A run the preflight could not look for (an older schema, migrated on open) is
    // still refused before anything is written.
    const result = await runSweep({ ...options, progress, signal: controller.signal }).catch(
      (error: unknown) => {
        if (error instanceof ResultsError && error.code === "not-found") {
          throw new CliError(error.message);
        }
        if (error instanceof SweepStorageError) {
          const state = error.marked
            ? "is marked interrupted"
            : "could not be marked (it shows running)";
          throw new CliError(
            `the sweep stopped: ${error.message}\nrun ${error.runId} ${state}; the cells stored are kept. Once the disk has room, resume with: ${resumeCommand(command, error.runId, flags.db, outDir)}`,
          );
        }
        throw error;
      },
    );
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      const resume =
        result.status === "interrupted"
          ? resumeCommand(command, result.runId, flags.db, outDir)
          : undefined;
      process.stdout.write(
        sweepSummary(result, progress.snapshot?.(), Date.now() - startedAt, resume),
      );
    }
    if (result.status === "interrupted") process.exitCode = EXIT.interrupted;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, stop);
  }
}
