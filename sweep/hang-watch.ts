/**
 * Telling a hung gateway from a slow one (docs/sweep.md, "A gateway that stops answering"):
 * LiteLLM 1.83.9's main thread spun at 100% a minute into a sweep and never answered again,
 * and the sweep waited out every cell's client deadline. A run of attempts that got nothing at
 * all before their deadline, on probes whose staged reply is immediate, makes the session ask
 * the gateway's readiness URL once more; no answer there, and the gateway is handled like a
 * crash (gateway-session.ts).
 */
import type { GatewayAdapter, RunningGateway } from "../gateways/adapter.ts";
import { probeHttp } from "../gateways/ports.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import { stagesUpstreamError, waitsOnTimer } from "./cells.ts";
import { type ClientResponse, unansweredByDeadline } from "./http-client.ts";

/**
 * Consecutive unanswered attempts before the health check: twice the default `--concurrency`
 * of 4, so a gateway slow under one burst (every slot timing out at once) is not asked after
 * one unlucky batch; few enough that a hung one costs about two deadlines (40 s at the
 * defaults) instead of the rest of the budget.
 */
export const HUNG_AFTER_UNANSWERED = 8;

/**
 * The health check's deadline: a live gateway answers its readiness URL (which asks nothing
 * of the upstream) well within this even while busy; never longer than an attempt's deadline.
 */
export const HEALTH_CHECK_MS = 5_000;

export function healthCheckMs(attemptTimeoutMs: number): number {
  return Math.min(HEALTH_CHECK_MS, attemptTimeoutMs);
}

/**
 * Whether an unanswered attempt of this probe says anything about the gateway: not when the
 * probe makes it wait by design (a staged delay or `Retry-After`, a caller's deadline it
 * states, a staged upstream error a gateway may retry until the client gives up).
 */
export function countsTowardsHang(
  probe: Probe,
  adapter: Pick<GatewayAdapter, "sleepsBeforeRetry">,
): boolean {
  return (
    probe.context?.deadlineMs === undefined &&
    !waitsOnTimer(probe, adapter) &&
    !stagesUpstreamError(probe)
  );
}

/** The run of consecutive unanswered attempts on one gateway process. */
export class HangWatch {
  private unanswered = 0;

  constructor(private readonly adapter: Pick<GatewayAdapter, "sleepsBeforeRetry">) {}

  /** Record one attempt's response; true when the run reached `HUNG_AFTER_UNANSWERED`. */
  record(probe: Probe, response: ClientResponse): boolean {
    if (!unansweredByDeadline(response)) {
      // Any answer (a status, a byte, even a reset) shows the gateway is not silent.
      if (response.status !== 0 || response.timings.firstByteMs !== undefined) this.unanswered = 0;
      return false;
    }
    if (!countsTowardsHang(probe, this.adapter)) return false;
    this.unanswered += 1;
    return this.unanswered >= HUNG_AFTER_UNANSWERED;
  }

  get count(): number {
    return this.unanswered;
  }

  reset(): void {
    this.unanswered = 0;
  }
}

/** Whether the gateway answers its readiness URL (any HTTP status) within `timeoutMs`. */
export async function answersHealthCheck(
  gateway: Pick<RunningGateway, "baseUrl" | "readyUrl">,
  timeoutMs: number,
): Promise<boolean> {
  return (await probeHttp(gateway.readyUrl ?? `${gateway.baseUrl}/`, timeoutMs)) !== undefined;
}
