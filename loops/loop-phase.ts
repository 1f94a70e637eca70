/**
 * The sweep's loop phase: on a running gateway column, every route a loop agent can call
 * (an official SDK's dialect) runs every loop variant once, after the column's cells, within
 * the sweep's time budget, and two clients with their own keys run the plain loop one after
 * the other (second-client.ts: a key that sticks). Each loop holds one request slot for its
 * requests, so a gateway never sees more than `--concurrency` requests at once. Outcomes are
 * stored as they come (results/loop-records.ts); a loop the budget or a dead gateway stopped
 * is `not-run` with the reason, and `--resume` runs it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { GatewayRoute } from "../gateways/adapter.ts";
import { insideRoot } from "../results/inside-root.ts";
import { doneLoopKeys, type LoopRecord, loopKey, putLoop } from "../results/loop-records.ts";
import type { Db } from "../results/schema.ts";
import type { Deadline } from "../sweep/deadline.ts";
import { type GatewaySession, NOT_WANTED } from "../sweep/gateway-session.ts";
import { forEachLimited } from "../sweep/pool.ts";
import { inShard, type Shard } from "../sweep/shard.ts";
import { loopEvidenceFile } from "./evidence-file.ts";
import type { LoopOutcome } from "./loop-outcome.ts";
import {
  LOOP_CLIENTS,
  LOOP_VARIANTS,
  type LoopVariant,
  SECOND_CLIENT_VARIANT,
} from "./loop-script.ts";
import { type LoopRun, type LoopTarget, runLoop } from "./run-loop.ts";
import { runSecondClient, secondClientNotApplicable } from "./second-client.ts";

export interface LoopPhaseSettings {
  runId: string;
  /** The column label (`portkey@1.15.2`). */
  column: string;
  routes: readonly GatewayRoute[];
  apiKey: string;
  backendModel: string;
  attemptTimeoutMs: number;
  concurrency: number;
  shard?: Shard;
  deadline: Deadline;
  signal: AbortSignal;
  /** The column's work folder: each loop's evidence is written under it (evidence-file.ts). */
  workdir: string;
  /** The variants to run (default: all of LOOP_VARIANTS). */
  variants?: readonly LoopVariant[];
  /** Why a route's loops are not run (its preflight failed, sweep/route-preflight.ts), if so. */
  routeNotRun?: (route: GatewayRoute) => string | undefined;
  /** Told how many loops the phase runs, then each one finished (the progress display). */
  progress?: { planned(n: number): void; done(): void };
}

export interface LoopPhaseResult {
  run: number;
  completed: number;
  notRun: number;
}

/** Routes an agent can call: those whose client dialect has an official SDK agent. */
export function loopRoutes(routes: readonly GatewayRoute[]): GatewayRoute[] {
  return routes.filter((r) => r.status !== "fails" && LOOP_CLIENTS.includes(r.client));
}

/** What one planned loop gives back: its outcome and the evidence to keep. */
interface LoopResult {
  outcome: LoopOutcome;
  nonce: string;
  totalMs: number;
  evidence: unknown;
}

function loopResult(run: LoopRun): LoopResult {
  return {
    outcome: run.outcome,
    nonce: run.nonce,
    totalMs: run.totalMs,
    evidence: { turns: run.turns, forwarded: run.forwarded },
  };
}

interface PlannedLoop {
  route: GatewayRoute;
  variant: string;
  key: string;
  /** Why this loop cannot run on its route (it is stored not-run with this reason). */
  notApplicable?: string;
  run(target: Omit<LoopTarget, "apiKey">): Promise<LoopResult>;
}

/** Client A's loop and client B's, judged for a key that stuck (second-client.ts). */
async function secondClientResult(
  target: Omit<LoopTarget, "apiKey">,
  routeKey: string,
): Promise<LoopResult> {
  const pair = await runSecondClient(target, routeKey);
  return {
    outcome: pair.outcome,
    nonce: pair.second.nonce,
    totalMs: pair.first.totalMs + pair.second.totalMs,
    evidence: {
      first: loopResult(pair.first).evidence,
      second: loopResult(pair.second).evidence,
    },
  };
}

function plannedLoops(settings: LoopPhaseSettings, done: ReadonlySet<string>): PlannedLoop[] {
  const variants = settings.variants ?? LOOP_VARIANTS;
  return loopRoutes(settings.routes).flatMap((route) => {
    const routeNotRun = settings.routeNotRun?.(route);
    const loops: Omit<PlannedLoop, "key">[] = variants.map((variant) => ({
      route,
      variant: variant.id,
      ...(routeNotRun ? { notApplicable: routeNotRun } : {}),
      run: async (target) =>
        loopResult(await runLoop({ ...target, apiKey: settings.apiKey }, variant)),
    }));
    const notApplicable = routeNotRun ?? secondClientNotApplicable(route);
    loops.push({
      route,
      variant: SECOND_CLIENT_VARIANT,
      ...(notApplicable ? { notApplicable } : {}),
      run: (target) => secondClientResult(target, settings.apiKey),
    });
    return loops
      .map((l) => ({ ...l, key: loopKey(settings.column, route.id, l.variant) }))
      .filter((l) => inShard(l.key, settings.shard) && !done.has(l.key));
  });
}

export async function loopPhase(
  session: Pick<GatewaySession, "hold" | "deadReason">,
  settings: LoopPhaseSettings,
  db: Db,
): Promise<LoopPhaseResult> {
  const { runId, column } = settings;
  const planned = plannedLoops(settings, doneLoopKeys(db, runId));
  const result: LoopPhaseResult = { run: 0, completed: 0, notRun: 0 };
  const wanted = () => !settings.signal.aborted && !settings.deadline.workExpired();
  if (wanted()) settings.progress?.planned(planned.length);
  const one = async (loop: PlannedLoop): Promise<void> => {
    const { route } = loop;
    const base = {
      runId,
      column,
      routeId: route.id,
      variant: loop.variant,
      client: route.client,
      backend: route.backend,
      ...(route.persona ? { persona: route.persona } : {}),
      losses: [],
    } satisfies Partial<LoopRecord>;
    const notRun = (reason: string) => {
      result.notRun += 1;
      putLoop(db, { ...base, status: "not-run", reason });
    };
    if (loop.notApplicable) {
      notRun(loop.notApplicable);
      return;
    }
    let run: LoopResult | typeof NOT_WANTED | undefined;
    try {
      run = wanted()
        ? await session.hold(
            route,
            ({ baseUrl, mock }) =>
              loop.run({
                baseUrl,
                route,
                mock,
                backendModel: settings.backendModel,
                timeoutMs: settings.attemptTimeoutMs,
              }),
            wanted,
          )
        : NOT_WANTED;
    } catch (error) {
      notRun(`the loop could not run: ${(error as Error).message}`);
      return;
    }
    if (run === NOT_WANTED) {
      if (!settings.signal.aborted) notRun("budget: the sweep's time ran out");
      return;
    }
    if (!run) {
      notRun(`gateway ${session.deadReason ?? "given up on"}`);
      return;
    }
    result.run += 1;
    if (run.outcome.status === "completed") result.completed += 1;
    const { outcome } = run;
    const evidence = JSON.stringify(run.evidence, null, 1);
    const file = insideRoot(settings.workdir, loopEvidenceFile(route.id, loop.variant));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, evidence);
    putLoop(db, {
      ...base,
      status: outcome.status,
      ...(outcome.status === "broke"
        ? { turn: outcome.turn, cause: outcome.cause, reason: outcome.reason }
        : {}),
      losses: outcome.losses,
      nonce: run.nonce,
      totalMs: run.totalMs,
      evidence,
    });
  };
  await forEachLimited(planned, settings.concurrency, async (loop) => {
    await one(loop);
    settings.progress?.done();
  });
  return result;
}
