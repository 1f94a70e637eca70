/**
 * A route is checked before it is swept: before a column's cells, each of its routes gets
 * one plain request per mode through the running gateway (gateways/doctor.ts `checkRoute`,
 * what `gateways doctor` runs), against the column's own mock listeners, mounts and personas.
 * A route and mode whose plain request the backend's provider does not serve (it never
 * reached the mock, or reached it on a method and path the backend does not serve) is not
 * swept: its cells are `not-run` with the reason, shown in the matrix's scope, never a
 * finding. Its path probes still run when the request reached the mock on a wrong path: a
 * gateway that builds a wrong URL is found by them, their own canary judged (docs/sweep.md).
 */
import type { Mode } from "../dialects/dialect.ts";
import type { GatewayRoute } from "../gateways/adapter.ts";
import {
  checkRoute,
  type DoctorMock,
  type PreflightFailure,
  type RouteCheck,
} from "../gateways/doctor.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import { PREFLIGHT_REASON } from "../results/scope.ts";
import { collectRecords } from "./collect-records.ts";
import type { GatewaySession } from "./gateway-session.ts";
import { NOT_WANTED } from "./gateway-session.ts";
import { backendMountOf, type ColumnMocks } from "./persona-mocks.ts";
import { forEachLimited } from "./pool.ts";

/** The column's mock listeners as a route's check reads them: the sweep's and the doctor's. */
export function doctorMockOf(mocks: Pick<ColumnMocks, "forRoute">): DoctorMock {
  return {
    // As the sweep's attempts name the mock in a route's headers (attempt.ts).
    urlFor: (route) => mocks.forRoute(route).url,
    forwarded: async (route, nonce) =>
      (await collectRecords([mocks.forRoute(route)], nonce, 50)).map((r) => ({
        method: r.request.method,
        path: r.request.path,
      })),
    mountOf: (route) => backendMountOf(route),
  };
}

export interface PreflightSettings {
  apiKey: string;
  backendModel: string;
  attemptTimeoutMs: number;
  concurrency: number;
}

/** Each route and mode's failed preflight, by route id and mode; absent: swept. */
export class RoutePreflights {
  private readonly failures = new Map<string, PreflightFailure>();

  constructor(readonly checks: readonly RouteCheck[] = []) {
    for (const c of checks) {
      if (c.preflight) this.failures.set(`${c.route} ${c.mode}`, c.preflight);
    }
  }

  failure(routeId: string, mode: Mode): PreflightFailure | undefined {
    return this.failures.get(`${routeId} ${mode}`);
  }

  /**
   * Why a probe's cell on this route and mode is not swept, or undefined when it is: a
   * route whose plain request went to a path the backend does not serve still runs its path
   * probes.
   */
  notRunReason(probe: Pick<Probe, "axis">, routeId: string, mode: Mode): string | undefined {
    const failure = this.failure(routeId, mode);
    if (!failure || (failure.unservedPath && probe.axis === "path")) return undefined;
    return preflightReason(mode, failure);
  }

  /** Why a route takes no part beyond its own cells (control legs, agent loops), if so. */
  routeNotRunReason(routeId: string): string | undefined {
    for (const mode of ["non-stream", "stream"] as const) {
      const failure = this.failure(routeId, mode);
      if (failure) return preflightReason(mode, failure);
    }
    return undefined;
  }
}

export function preflightReason(mode: Mode, failure: PreflightFailure): string {
  return `${PREFLIGHT_REASON} (${mode}): ${failure.reason}`;
}

/**
 * The preflight of every route in every mode the sweep runs, through the session (a crash
 * under it restarts the gateway as under a cell). A check the gateway never answered, or one
 * not wanted any more (deadline, Ctrl-C), fails nothing (doctor.ts): the cells then meet the
 * same, and the session's crash and hang handling judges them.
 */
export async function preflightRoutes(
  session: Pick<GatewaySession, "hold">,
  routes: readonly GatewayRoute[],
  modes: readonly Mode[],
  mock: DoctorMock,
  settings: PreflightSettings,
  wanted: () => boolean,
): Promise<RoutePreflights> {
  const pairs = routes.flatMap((route) => modes.map((mode) => ({ route, mode })));
  const checks: RouteCheck[] = [];
  await forEachLimited(pairs, settings.concurrency, async ({ route, mode }) => {
    const check = await session.hold(
      route,
      ({ baseUrl }) =>
        checkRoute({ baseUrl }, route, mock, mode === "stream", {
          apiKey: settings.apiKey,
          model: settings.backendModel,
          timeoutMs: settings.attemptTimeoutMs,
        }),
      wanted,
    );
    if (check && check !== NOT_WANTED) checks.push(check);
  });
  return new RoutePreflights(checks);
}
