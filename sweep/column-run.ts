/**
 * One gateway column of the sweep: its cells planned (finished ones of a resumed run left
 * out), its mock listeners and gateway started, the phases run (column-phases.ts), the
 * agent loops, and everything stopped and the gateway's logs redacted, whatever happened.
 * A gateway that cannot start makes every cell of the column `not-run` with the reason.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Mode } from "../dialects/dialect.ts";
import type { GatewayAdapter, GatewaySpec } from "../gateways/adapter.ts";
import { startGateway } from "../gateways/start.ts";
import { columnFolder } from "../loops/evidence-file.ts";
import { loopPhase, loopRoutes } from "../loops/loop-phase.ts";
import { LOOP_VARIANTS } from "../loops/loop-script.ts";
import { startMock } from "../mock-upstream/index.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import type { CellWriter } from "../results/cell-writer.ts";
import { insideRoot } from "../results/inside-root.ts";
import { cellKeyString, type DoneCell } from "../results/records.ts";
import type { ResultsStore } from "../results/store.ts";
import { unattemptedCell } from "./cell-record.ts";
import { type PlannedCell, planCells, slowestFirst } from "./cells.ts";
import {
  controlPhase,
  controlPlanOf,
  INTERRUPTED_REASON,
  mainPhase,
  repeatPhase,
} from "./column-phases.ts";
import { preflightColumn, withoutPreflightFailures } from "./column-preflight.ts";
import type { Deadline } from "./deadline.ts";
import {
  type FallbackTarget,
  fallbackNotRunReason,
  isFallbackProbe,
  SECOND_TARGET_DEFAULT,
  withFallbackTarget,
} from "./fallback-targets.ts";
import { redactGatewayLogs } from "./gateway-logs.ts";
import { GatewaySession } from "./gateway-session.ts";
import type { WireJudge } from "./judge-wire.ts";
import { knownIssueFor } from "./known-issue.ts";
import { startColumnMocks } from "./persona-mocks.ts";
import type { ProgressSink } from "./progress.ts";
import { finishedCell } from "./resume-cells.ts";
import type { Shard } from "./shard.ts";

export interface ColumnSettings {
  runId: string;
  probes: readonly Probe[];
  modes: readonly Mode[];
  shard?: Shard;
  repeats: number;
  concurrency: number;
  attemptTimeoutMs: number;
  backendModel: string;
  apiKey: string;
  /** This run's folder; the column gets `<workRoot>/<label>/` for config, logs, mock records. */
  workRoot: string;
  cacheDir?: string;
  deadline: Deadline;
  signal: AbortSignal;
}

export interface ColumnDeps {
  store: ResultsStore;
  writer: CellWriter;
  progress: ProgressSink;
  /** Cells already in the database (resume), by cell key; `not-run` ones left out. */
  stored: ReadonlyMap<string, DoneCell>;
  /** Judges attempts (default: in this thread; judge-thread.ts judges in a worker). */
  judge?: WireJudge;
}

export interface ColumnJob {
  adapter: GatewayAdapter;
  spec: GatewaySpec;
  label: string;
  /** Use the gateway already running here (`--attach`). */
  attachUrl?: string;
  /** Port of this column's mock (an attached gateway was pointed at it). */
  mockPort?: number;
}

export interface ColumnResult {
  label: string;
  status: "ok" | "not-run" | "error";
  reason?: string;
  cells: number;
}

/** The column's folder in the run's: its label as one folder name, never a path out of it. */
function columnWorkdir(workRoot: string, label: string): string {
  return insideRoot(workRoot, columnFolder(label));
}

export async function runColumn(
  job: ColumnJob,
  settings: ColumnSettings,
  deps: ColumnDeps,
): Promise<ColumnResult> {
  const { label, spec, adapter } = job;
  const { runId, signal } = settings;
  const workdir = columnWorkdir(settings.workRoot, label);
  mkdirSync(workdir, { recursive: true });
  const routes = adapter.routes(spec).filter((r) => r.status !== "fails");
  const unfinished: PlannedCell[] = [];
  const planned = slowestFirst(
    planCells(label, routes, settings.probes, {
      modes: settings.modes,
      credentialsPassThrough: adapter.source === "none",
      ...(settings.shard ? { shard: settings.shard } : {}),
    }).filter((c) => {
      const stored = deps.stored.get(cellKeyString(c.key));
      if (!stored) return true;
      if (finishedCell(stored, settings.repeats, controlPlanOf(c, routes) !== undefined)) {
        return false;
      }
      unfinished.push(c);
      return true;
    }),
  );
  // Run again from the first attempt: what they hold is a part of what they need.
  deps.store.deleteCells(
    runId,
    unfinished.map((c) => c.key),
  );
  deps.progress.column(label, planned.length, {
    repeats: settings.repeats,
    loops: loopRoutes(routes).length * (LOOP_VARIANTS.length + 1),
  });
  const issueOf = (cell: PlannedCell) =>
    knownIssueFor(cell.probe, {
      gateway: spec.name,
      version: spec.version,
      backend: cell.route.backend,
      mode: cell.key.mode,
    })?.url;

  const { runnable, fallbackTarget } = await fallbackPlan(job, planned, settings, deps, issueOf);
  const mocks = await startColumnMocks(label, workdir, routes, {
    ...(job.mockPort !== undefined ? { port: job.mockPort } : {}),
  }).catch(async (error: unknown) => {
    await fallbackTarget?.mock.close();
    throw error;
  });
  const launched = fallbackTarget ? withFallbackTarget(adapter, fallbackTarget.mock) : adapter;
  const startOptions = {
    workdir,
    mockUrl: (_backend: unknown, persona?: string) => mocks.url(persona),
    models: [settings.backendModel],
    ...(settings.cacheDir ? { cacheDir: settings.cacheDir } : {}),
    signal,
    // Install lines name the column already; the progress line does too.
    report: (line: string) =>
      deps.progress.note(
        label,
        line.startsWith(`${label}: `) ? line.slice(label.length + 2) : line,
      ),
    ...(job.attachUrl ? { attachUrl: job.attachUrl } : {}),
  };
  try {
    if (job.attachUrl) {
      deps.progress.note(
        label,
        `attached at ${job.attachUrl}; its upstream must be ${mocks.url()}`,
      );
    }
    const started = await startGateway(launched, spec, startOptions);
    if (started.status !== "running") {
      deps.store.putGatewayRun({
        runId,
        gateway: spec.name,
        version: spec.version,
        column: label,
        status: "not-run",
        reason: started.reason,
        ...(started.logPath ? { logPath: started.logPath } : {}),
      });
      for (const cell of runnable) {
        deps.writer.add({
          cell: unattemptedCell(
            runId,
            cell,
            "not-run",
            signal.aborted ? INTERRUPTED_REASON : `gateway not run: ${started.reason}`,
            issueOf(cell),
          ),
          attempts: [],
        });
        deps.progress.cell(label, "not-run", signal.aborted);
      }
      return { label, status: "not-run", reason: started.reason, cells: planned.length };
    }
    const version = started.install.version ?? spec.version;
    deps.store.putGatewayRun({
      runId,
      gateway: spec.name,
      version,
      column: label,
      status: "ok",
      ...(started.gateway.logPath ? { logPath: started.gateway.logPath } : {}),
    });
    const session = new GatewaySession(
      started.gateway,
      launched,
      spec,
      startOptions,
      (route) => mocks.forRoute(route),
      deps.judge ? { ...settings, judge: deps.judge } : settings,
      (message) => deps.progress.note(label, message),
      fallbackTarget,
    );
    try {
      const preflights = await preflightColumn(session, routes, mocks, settings, deps, label);
      const swept = withoutPreflightFailures(runnable, preflights, settings, deps, label, issueOf);
      // Control legs and agent loops go only over routes whose preflight passed in every mode
      // (a loop of another route is stored not-run with the preflight's reason).
      const checked = routes.filter((r) => preflights.routeNotRunReason(r.id) === undefined);
      const states = await mainPhase(swept, session, settings, deps, label, issueOf);
      await repeatPhase(states, session, settings, deps, label);
      await controlPhase(states, checked, session, settings, deps, label);
      const loops = await loopPhase(
        session,
        {
          runId,
          column: label,
          routes,
          routeNotRun: (route) => preflights.routeNotRunReason(route.id),
          workdir,
          apiKey: settings.apiKey,
          backendModel: settings.backendModel,
          attemptTimeoutMs: settings.attemptTimeoutMs,
          concurrency: settings.concurrency,
          ...(settings.shard ? { shard: settings.shard } : {}),
          deadline: settings.deadline,
          signal,
          progress: {
            planned: (n) => deps.progress.phase?.(label, "loops", n),
            done: () => deps.progress.step?.(label),
          },
        },
        deps.store.db,
      );
      if (loops.run + loops.notRun > 0) {
        deps.progress.note(
          label,
          `agent loops: ${loops.completed} of ${loops.run} completed${loops.notRun ? `, ${loops.notRun} not run` : ""}`,
        );
      }
    } finally {
      await session.stop();
    }
    if (session.deadReason) {
      deps.store.putGatewayRun({
        runId,
        gateway: spec.name,
        version,
        column: label,
        status: "error",
        reason: session.deadReason,
        ...(session.logPath ? { logPath: session.logPath } : {}),
      });
      return { label, status: "error", reason: session.deadReason, cells: planned.length };
    }
    return { label, status: "ok", cells: planned.length };
  } finally {
    deps.progress.end?.(label);
    await mocks.close();
    await fallbackTarget?.mock.close();
    redactGatewayLogs(workdir, [settings.apiKey]);
  }
}

/**
 * Fallback cells the gateway cannot run are written `not-run` with the reason; for the rest
 * a second mock listener plays the second target.
 */
async function fallbackPlan(
  job: ColumnJob,
  planned: readonly PlannedCell[],
  settings: ColumnSettings,
  deps: ColumnDeps,
  issueOf: (cell: PlannedCell) => string | undefined,
): Promise<{ runnable: PlannedCell[]; fallbackTarget?: FallbackTarget }> {
  const runnable: PlannedCell[] = [];
  for (const cell of planned) {
    const why = isFallbackProbe(cell.probe)
      ? fallbackNotRunReason(job.adapter, cell.route)
      : undefined;
    if (why === undefined) {
      runnable.push(cell);
      continue;
    }
    deps.writer.add({
      cell: unattemptedCell(settings.runId, cell, "not-run", why, issueOf(cell)),
      attempts: [],
    });
    deps.progress.cell(job.label, "not-run");
  }
  const support = job.adapter.fallback;
  if (!support?.supported || !runnable.some((c) => isFallbackProbe(c.probe))) return { runnable };
  const workdir = columnWorkdir(settings.workRoot, job.label);
  const mock = await startMock({
    name: `${job.label}#second`,
    recordFile: join(workdir, "mock-records-second.jsonl"),
  });
  mock.stage(SECOND_TARGET_DEFAULT);
  return { runnable, fallbackTarget: { mock, support } };
}
