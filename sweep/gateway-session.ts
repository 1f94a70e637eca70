/**
 * A running gateway as the sweep uses it: attempts go through it, and a crash or a hang
 * (hang-watch.ts) is noticed, the gateway restarted once, and after a second crash or hang
 * every further attempt is refused with the log path, so one gateway's death never stalls
 * the others.
 */

import { redactText } from "../dialects/credentials.ts";
import type {
  GatewayAdapter,
  GatewayRoute,
  GatewaySpec,
  RunningGateway,
} from "../gateways/adapter.ts";
import { exitWithin } from "../gateways/process-group.ts";
import { type StartOptions, startGateway } from "../gateways/start.ts";
import type { MockHandle } from "../mock-upstream/index.ts";
import { CANARY_VALUES } from "../probes/corpus/canaries.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import {
  type AttemptOutcome,
  type AttemptPlan,
  type AttemptTarget,
  judgeSent,
  sendAttempt,
} from "./attempt.ts";
import { waitsOnTimer } from "./cells.ts";
import type { FallbackTarget } from "./fallback-targets.ts";
import { answersHealthCheck, HangWatch, healthCheckMs } from "./hang-watch.ts";
import type { ClientResponse } from "./http-client.ts";
import type { WireJudge } from "./judge-wire.ts";
import { Slots } from "./pool.ts";

export interface SessionSettings {
  apiKey: string;
  backendModel: string;
  attemptTimeoutMs: number;
  /** Requests in flight to the gateway at once (`--concurrency`). */
  concurrency: number;
  /** Judges attempts (default: in this thread; judge-thread.ts judges in a worker). */
  judge?: WireJudge;
}

/**
 * Request slots for attempts that wait on a timer (cells.ts `waitsOnTimer`), per slot of
 * `--concurrency`, on a gateway that holds nothing while it waits (its adapter's
 * `timerSlotsPerSlot`: LiteLLM sleeps out the 429 probe's `Retry-After: 30` until the client
 * gives up at 20 s); 0 elsewhere: such attempts share the gateway's slots (any-llm holds a
 * database connection for each). docs/sweep.md, Performance, has what those waits cost.
 */
function timerSlotsPerSlot(adapter: Pick<GatewayAdapter, "timerSlotsPerSlot">): number {
  return Math.max(0, Math.floor(adapter.timerSlotsPerSlot ?? 0));
}

/**
 * How long a cut connection waits for the exit event of a gateway process that has died (or
 * begun to exit) before it is judged. The kernel closes a dying process's sockets before Node
 * reaps it and emits `exit`, so the refused or reset connection can be seen first, the more
 * so on a loaded machine, and the crash would go unnoticed: the attempt judged as the
 * gateway's own failure (docs/sweep.md). The exit normally follows within milliseconds;
 * bounded, so a process that looks dead but does not exit (or one that cannot be told,
 * without /proc) costs that attempt 2 s and is then judged like a cut from a live gateway.
 */
export const EXIT_EVENT_GRACE_MS = 2_000;

/** An attempt the caller no longer wanted once a request slot came free (deadline, Ctrl-C). */
export const NOT_WANTED = "not-wanted";

export class GatewaySession {
  private restarts = 0;
  private readonly slots: Slots;
  /** Absent where the gateway's timer waits share its slots. */
  private readonly waitingSlots: Slots | undefined;
  private restarting: Promise<boolean> | undefined;
  private readonly hangs: HangWatch;
  private checkingHang: Promise<void> | undefined;
  /** Gateways this session stopped itself (hung): their exit is no crash. */
  private readonly stoppedHere = new WeakSet<RunningGateway>();
  /** Why the gateway is given up on; set after its second crash. */
  deadReason: string | undefined;

  constructor(
    private gateway: RunningGateway,
    private readonly adapter: GatewayAdapter,
    private readonly spec: GatewaySpec,
    private readonly startOptions: StartOptions,
    /** The mock listener of a route (a persona's, or the column's own). */
    private readonly mock: MockHandle | ((route: GatewayRoute) => MockHandle),
    private readonly settings: SessionSettings,
    private readonly onNote: (message: string) => void,
    /** The second target, when the column runs fallback probes. */
    private readonly fallback?: FallbackTarget,
  ) {
    this.slots = new Slots(settings.concurrency);
    this.hangs = new HangWatch(adapter);
    const perSlot = timerSlotsPerSlot(adapter);
    this.waitingSlots = perSlot > 0 ? new Slots(settings.concurrency * perSlot) : undefined;
  }

  /** Whether an attempt of this probe waits in the timer slots (there are some, and it waits). */
  waitsOnTimer(probe: Probe): boolean {
    return this.waitingSlots !== undefined && waitsOnTimer(probe, this.adapter);
  }

  /** Request slots of the attempts that wait on a timer; 0 where they share the others'. */
  get timerSlots(): number {
    return this.waitingSlots?.size ?? 0;
  }

  get logPath(): string | undefined {
    return this.gateway.logPath;
  }

  /**
   * One attempt through the gateway: undefined once it is given up on. The request holds one
   * of `concurrency` slots until the mock's record is in; judging happens after, so the
   * gateway gets its next request meanwhile. A request that waits on a timer holds a slot of
   * its own kind instead. `wanted` is asked again once a slot is held.
   */
  async attempt(
    route: GatewayRoute,
    plan: AttemptPlan,
    wanted: () => boolean = () => true,
  ): Promise<AttemptOutcome | typeof NOT_WANTED | undefined> {
    if (this.deadReason) return undefined;
    const target = (): AttemptTarget => ({
      baseUrl: this.gateway.baseUrl,
      mock: typeof this.mock === "function" ? this.mock(route) : this.mock,
      route,
      apiKey: this.settings.apiKey,
      backendModel: this.settings.backendModel,
      timeoutMs: this.settings.attemptTimeoutMs,
      ...(this.fallback ? { fallback: this.fallback } : {}),
      ...(this.settings.judge ? { judge: this.settings.judge } : {}),
    });
    const slots = (this.waitsOnTimer(plan.probe) && this.waitingSlots) || this.slots;
    let sentTo = this.gateway;
    const send = () =>
      slots.run(async () => {
        if (!wanted()) return undefined;
        sentTo = this.gateway;
        return sendAttempt(target(), plan);
      });
    let sent = await send();
    // At most twice: once more after the restart of a gateway that crashed or hung under this
    // attempt, and once should the restarted one do the same (it is given up on then).
    for (let tries = 0; sent && tries < 2; tries++) {
      const next = await this.afterReply(plan.probe, sent.response, sentTo);
      if (next === "keep") break;
      if (next === "dead") return this.interrupted() ? NOT_WANTED : undefined;
      sent = await send();
    }
    return sent ? judgeSent(target(), plan, sent) : NOT_WANTED;
  }

  /**
   * Run `work` (an agent loop: requests that belong together, loops/loop-phase.ts) against
   * the gateway while holding one request slot for all of them: undefined once the gateway
   * is given up on, NOT_WANTED when `wanted` says no once the slot is held. A crash during
   * the work restarts the gateway once for whatever runs next.
   */
  async hold<T>(
    route: GatewayRoute,
    work: (at: { baseUrl: string; mock: MockHandle }) => Promise<T>,
    wanted: () => boolean = () => true,
  ): Promise<T | typeof NOT_WANTED | undefined> {
    if (this.deadReason) return undefined;
    const mock = typeof this.mock === "function" ? this.mock(route) : this.mock;
    const result = await this.slots.run(async () =>
      wanted() ? work({ baseUrl: this.gateway.baseUrl, mock }) : NOT_WANTED,
    );
    if (await this.crashedNow()) await this.restart();
    return result;
  }

  private restart(): Promise<boolean> {
    this.restarting ??= this.doRestart().finally(() => {
      this.restarting = undefined;
    });
    return this.restarting;
  }

  /**
   * Whether the gateway crashed: its exit event came, or its process is dying and the event
   * comes within `EXIT_EVENT_GRACE_MS`. A gateway this session stopped (hung) never did.
   */
  private async crashedNow(): Promise<boolean> {
    const on = this.gateway;
    if (this.stoppedHere.has(on)) return false;
    if (on.exited() === undefined) {
      if (!on.whenExited || !on.dying?.()) return false;
      await exitWithin(on.whenExited, EXIT_EVENT_GRACE_MS);
    }
    // Another attempt may have begun replacing it meanwhile: then its restart is under way.
    return on.exited() !== undefined && !this.stoppedHere.has(on);
  }

  /** Stopping (Ctrl-C): an attempt cut short is left for `--resume`, never an `error`. */
  private interrupted(): boolean {
    return this.startOptions.signal?.aborted === true;
  }

  private async doRestart(): Promise<boolean> {
    if (this.deadReason) return false;
    if (this.interrupted()) return false;
    if (!this.gateway.exited()) return true; // another attempt already restarted it
    const exit = this.gateway.exited();
    const how = exit?.signal ? `signal ${exit.signal}` : `exit code ${exit?.exitCode ?? "?"}`;
    // The reason is stored and reported: a gateway that dumps the failing request shows the
    // route's key or a canary in its last lines, redacted here like any recorded byte.
    const tail = redactText(this.gateway.logTail(5).join(" | "), CANARY_VALUES);
    return this.replaceOnce({
      given: `crashed twice (${how}); log: ${this.gateway.logPath ?? "none"}${tail ? `; last lines: ${tail}` : ""}`,
      first: `crashed (${how})`,
    });
  }

  /**
   * What an answered or unanswered attempt means for the gateway (hang-watch.ts): "resend"
   * when it failed on a gateway since found crashed or hung and restarted, "dead" once given
   * up on (or when the restart was cut short by Ctrl-C).
   */
  private async afterReply(
    probe: Probe,
    response: ClientResponse,
    sentTo: RunningGateway,
  ): Promise<"keep" | "resend" | "dead"> {
    if (sentTo === this.gateway && this.hangs.record(probe, response)) {
      await this.checkHang(sentTo);
    }
    // Unanswered, cut by a crash, or cut when the hung gateway was stopped under it.
    if (response.transportError === undefined) return "keep";
    if (sentTo === this.gateway && (await this.crashedNow()) && !(await this.restart())) {
      return "dead";
    }
    // One under way (a hang's check, a crash's restart) may be replacing the gateway this went
    // to: an attempt cut by the dead one meanwhile goes to the new one, never judged as cut.
    await this.checkingHang;
    await this.restarting;
    if (this.deadReason) return "dead";
    return sentTo === this.gateway ? "keep" : "resend";
  }

  private checkHang(on: RunningGateway): Promise<void> {
    this.checkingHang ??= this.doCheckHang(on).finally(() => {
      this.checkingHang = undefined;
    });
    return this.checkingHang;
  }

  /** Too many unanswered attempts in a row: slow if its readiness URL answers, else hung. */
  private async doCheckHang(on: RunningGateway): Promise<void> {
    if (this.deadReason || this.interrupted() || on !== this.gateway) return;
    const unanswered = this.hangs.count;
    const withinMs = healthCheckMs(this.settings.attemptTimeoutMs);
    if (await answersHealthCheck(on, withinMs)) {
      this.hangs.reset();
      this.onNote(
        `${unanswered} requests in a row got no answer, but its health check did: slow, not hung`,
      );
      return;
    }
    const hung = `stopped answering (hung): ${unanswered} requests timed out and a health check got no answer within ${withinMs / 1000} s`;
    await this.replaceOnce({ given: `${hung}; log: ${on.logPath ?? "none"}`, first: hung });
  }

  /**
   * Stop the gateway (its process group, by PID) and start it once more; the second time, or
   * when it cannot start again, it is given up on with `deadReason`.
   */
  private async replaceOnce(why: { given: string; first: string }): Promise<boolean> {
    if (this.restarts >= 1) {
      this.deadReason = why.given;
      this.onNote(`gave up: ${this.deadReason}`);
      this.stoppedHere.add(this.gateway);
      await this.gateway.stop(); // a hung one would spin until the column ends
      return false;
    }
    this.restarts += 1;
    this.onNote(`${why.first}; restarting once`);
    this.stoppedHere.add(this.gateway);
    await this.gateway.stop();
    const started = await startGateway(this.adapter, this.spec, this.startOptions);
    if (started.status !== "running") {
      this.deadReason = `${why.first} and could not restart: ${started.reason}; log: ${started.logPath ?? this.gateway.logPath ?? "none"}`;
      this.onNote(`gave up: ${this.deadReason}`);
      return false;
    }
    this.gateway = started.gateway;
    this.hangs.reset();
    return true;
  }

  stop() {
    return this.gateway.stop();
  }
}
