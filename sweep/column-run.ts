/**
 * One gateway column through the sweep's phases: (1) every cell once; (2) non-clean cells
 * repeated to N attempts, folded to k of N; (3) the control leg for silent defects over the
 * gateway's native route for that backend. Each cell is written as soon as a phase finishes
 * it, so an interrupted run keeps what it did and `--resume` continues without duplicates.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Mode } from "../dialects/dialect.ts";
import type { GatewayAdapter, GatewayRoute, GatewaySpec } from "../gateways/adapter.ts";
import { startGateway } from "../gateways/start.ts";
import { loopPhase } from "../loops/loop-phase.ts";
import { startMock } from "../mock-upstream/index.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import { isClean, isSilentDefect, type Verdict } from "../probes/verdict.ts";
import type { CellWriter } from "../results/cell-writer.ts";
import { cellKeyString, type DoneCell } from "../results/records.ts";
import type { ResultsStore } from "../results/store.ts";
import { type AttemptPlan, mainLeg } from "./attempt.ts";
import { attemptRecord, cellRecord, unattemptedCell } from "./cell-record.ts";
import { type PlannedCell, planCells, slowestFirst } from "./cells.ts";
import { controlLeg, nativeRouteFor } from "./control-leg.ts";
import type { Deadline } from "./deadline.ts";
import {
  type FallbackTarget,
  fallbackNotRunReason,
  isFallbackProbe,
  SECOND_TARGET_DEFAULT,
  withFallbackTarget,
} from "./fallback-targets.ts";
import { redactGatewayLogs } from "./gateway-logs.ts";
import { GatewaySession, NOT_WANTED } from "./gateway-session.ts";
import type { WireJudge } from "./judge-wire.ts";
import { knownIssueFor } from "./known-issue.ts";
import { startPersonaMocks } from "./persona-mocks.ts";
import { forEachLimited } from "./pool.ts";
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

/**
 * Cells in progress per request slot: a cell waiting on its judgement (in the judging
 * worker, judge-thread.ts) holds no slot, so more cells than slots keep the gateway busy.
 * Measured through `direct` (docs/sweep.md, Performance): 4 × 8 cells over 8 slots gave
 * 5–10% more cells/s than 8 cells holding their slot to the end (ahead in 27 of 38 runs).
 */
export const CELLS_PER_SLOT = 4;

/** Whether another attempt may start: not after Ctrl-C, nor once the work budget is spent. */
function wantedWhileTimeLeft(settings: ColumnSettings): () => boolean {
  return () => !settings.signal.aborted && !settings.deadline.workExpired();
}

interface CellState {
  cell: PlannedCell;
  verdicts: Verdict[];
  knownIssue?: string;
}

export async function runColumn(
  job: ColumnJob,
  settings: ColumnSettings,
  deps: ColumnDeps,
): Promise<ColumnResult> {
  const { label, spec, adapter } = job;
  const { runId, signal } = settings;
  const workdir = join(settings.workRoot, label.replaceAll("/", "_"));
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
  deps.progress.column(label, planned.length);
  const issueOf = (cell: PlannedCell) =>
    knownIssueFor(cell.probe, {
      gateway: spec.name,
      version: spec.version,
      backend: cell.route.backend,
      mode: cell.key.mode,
    })?.url;

  const { runnable, fallbackTarget } = await fallbackPlan(job, planned, settings, deps, issueOf);
  const mock = await startMock({
    name: label,
    recordFile: join(workdir, "mock-records.jsonl"),
    ...(job.mockPort !== undefined ? { port: job.mockPort } : {}),
  }).catch(async (error: unknown) => {
    await fallbackTarget?.mock.close();
    throw error;
  });
  const mocks = await startPersonaMocks(label, workdir, routes, mock).catch(async (error) => {
    await mock.close();
    await fallbackTarget?.mock.close();
    throw error;
  });
  const launched = fallbackTarget ? withFallbackTarget(adapter, fallbackTarget.mock) : adapter;
  const startOptions = {
    workdir,
    mockUrl: (_backend: unknown, persona?: string) => mocks.url(persona),
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
      deps.progress.note(label, `attached at ${job.attachUrl}; its upstream must be ${mock.url}`);
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
            `gateway not run: ${started.reason}`,
            issueOf(cell),
          ),
          attempts: [],
        });
        deps.progress.cell(label, "not-run");
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
      const states = await mainPhase(runnable, session, settings, deps, label, issueOf);
      await repeatPhase(states, session, settings, deps, label);
      await controlPhase(states, routes, session, settings, deps, label);
      const loops = await loopPhase(
        session,
        {
          runId,
          column: label,
          routes,
          workdir,
          apiKey: settings.apiKey,
          backendModel: settings.backendModel,
          attemptTimeoutMs: settings.attemptTimeoutMs,
          concurrency: settings.concurrency,
          ...(settings.shard ? { shard: settings.shard } : {}),
          deadline: settings.deadline,
          signal,
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
    await mock.close();
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
  const workdir = join(settings.workRoot, job.label.replaceAll("/", "_"));
  const mock = await startMock({
    name: `${job.label}#second`,
    recordFile: join(workdir, "mock-records-second.jsonl"),
  });
  mock.stage(SECOND_TARGET_DEFAULT);
  return { runnable, fallbackTarget: { mock, support } };
}

async function mainPhase(
  planned: readonly PlannedCell[],
  session: GatewaySession,
  settings: ColumnSettings,
  deps: ColumnDeps,
  label: string,
  issueOf: (cell: PlannedCell) => string | undefined,
): Promise<CellState[]> {
  const states: CellState[] = [];
  const { runId } = settings;
  const stillWanted = wantedWhileTimeLeft(settings);
  await forEachLimited(planned, settings.concurrency * CELLS_PER_SLOT, async (cell) => {
    const knownIssue = issueOf(cell);
    const outcome = stillWanted()
      ? await session.attempt(cell.route, mainLeg(cell.probe, cell.key.mode), stillWanted)
      : NOT_WANTED;
    if (outcome === NOT_WANTED) {
      if (settings.signal.aborted) return; // left unwritten: --resume runs it
      deps.writer.add({
        cell: unattemptedCell(
          runId,
          cell,
          "not-run",
          "budget: the sweep's time ran out",
          knownIssue,
        ),
        attempts: [],
      });
      deps.progress.cell(label, "not-run");
      return;
    }
    if (!outcome) {
      deps.writer.add({
        cell: unattemptedCell(runId, cell, "error", `gateway ${session.deadReason}`, knownIssue),
        attempts: [],
      });
      deps.progress.cell(label, "error");
      return;
    }
    const state: CellState = {
      cell,
      verdicts: [outcome.verdict],
      ...(knownIssue ? { knownIssue } : {}),
    };
    states.push(state);
    deps.writer.add({
      cell: cellRecord({ runId, ...state }),
      attempts: [attemptRecord(runId, cell.key, "main", 1, outcome)],
    });
    deps.progress.cell(label, outcome.verdict.verdict);
  });
  return states;
}

async function repeatPhase(
  states: readonly CellState[],
  session: GatewaySession,
  settings: ColumnSettings,
  deps: ColumnDeps,
  label: string,
): Promise<void> {
  if (settings.repeats <= 1) return;
  const nonClean = states.filter((s) => !isClean(s.verdicts[0]?.verdict ?? "error"));
  const stillWanted = wantedWhileTimeLeft(settings);
  if (nonClean.length > 0 && stillWanted()) {
    deps.progress.note(
      label,
      `repeating ${nonClean.length} non-clean cells to ${settings.repeats} attempts`,
    );
  }
  await forEachLimited(nonClean, settings.concurrency * CELLS_PER_SLOT, async (state) => {
    const attempts = [];
    for (let n = 2; n <= settings.repeats; n++) {
      if (!stillWanted()) break;
      const outcome = await session.attempt(
        state.cell.route,
        mainLeg(state.cell.probe, state.cell.key.mode),
        stillWanted,
      );
      if (!outcome || outcome === NOT_WANTED) break;
      state.verdicts.push(outcome.verdict);
      attempts.push(attemptRecord(settings.runId, state.cell.key, "repeat", n, outcome));
    }
    if (attempts.length > 0) {
      deps.writer.add({ cell: cellRecord({ runId: settings.runId, ...state }), attempts });
    }
  });
}

/** The control leg a silent defect of this cell gets: its native route and plan, if any. */
function controlPlanOf(
  cell: PlannedCell,
  routes: readonly GatewayRoute[],
): { native: GatewayRoute; plan: AttemptPlan } | undefined {
  const native = nativeRouteFor(routes, cell.route.backend);
  if (!native || native.id === cell.route.id) return undefined;
  const plan = controlLeg(cell.probe, cell.key.mode, native);
  return plan ? { native, plan } : undefined;
}

async function controlPhase(
  states: readonly CellState[],
  routes: readonly GatewayRoute[],
  session: GatewaySession,
  settings: ColumnSettings,
  deps: ColumnDeps,
  label: string,
): Promise<void> {
  const candidates = states.flatMap((state) => {
    if (!isSilentDefect(cellRecord({ runId: settings.runId, ...state }).verdict)) return [];
    const control = controlPlanOf(state.cell, routes);
    return control ? [{ state, ...control }] : [];
  });
  const stillWanted = wantedWhileTimeLeft(settings);
  if (candidates.length > 0 && stillWanted()) {
    deps.progress.note(label, `control legs for ${candidates.length} silent defects`);
  }
  await forEachLimited(candidates, settings.concurrency * CELLS_PER_SLOT, async (candidate) => {
    const { state, native, plan } = candidate;
    if (!stillWanted()) return;
    const outcome = await session.attempt(native, plan, stillWanted);
    if (!outcome || outcome === NOT_WANTED) return;
    deps.writer.add({
      cell: cellRecord({
        runId: settings.runId,
        ...state,
        controlVerdict: outcome.verdict.verdict,
      }),
      attempts: [attemptRecord(settings.runId, state.cell.key, "control", 1, outcome)],
    });
  });
}
