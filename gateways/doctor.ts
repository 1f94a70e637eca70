/**
 * A route's check: one plain request per mode through the running gateway, and what reached
 * the mock. `gateways doctor` prints it; the sweep runs the very same check on every route
 * before the route's cells (its preflight, sweep/route-preflight.ts), against the very same
 * mock listeners, mounts and personas, so the two never disagree about a route.
 *
 * A forwarded request is *served* when its method and path are ones the route's backend
 * provider answers: a POST to a generate path of the backend dialect's module
 * (`dialects/<d>/routes.ts`, through `dialectOfPath`, as the mock matches it), under the
 * provider's mount where the route's persona has one (mock-upstream/personas/mounts.ts).
 * A route *works* when the client got a 2xx and the request was served. The doctor compares
 * that with the route table (a route documented as failing that fails is "as documented");
 * the sweep asks only whether the plain request was served (`preflight`).
 */

import { randomBytes } from "node:crypto";
import { redactText } from "../dialects/credentials.ts";
import type { ClientDialect, Dialect } from "../dialects/dialect.ts";
import { nonceOf } from "../dialects/nonce.ts";
import { dialectModule } from "../dialects/registry.ts";
import { writeRequestBody } from "../dialects/request.ts";
import { dialectOfPath } from "../dialects/routes.ts";
import type { GatewayRoute, RouteStatus, RunningGateway } from "./adapter.ts";

/** A provider's mount of a dialect, as far as a route's check needs it. */
export interface RouteMount {
  /** The path the provider serves the dialect under (`/anthropic`). */
  at: string;
  /** The prefix of the dialect's own route `at` stands in place of ("" adds it before). */
  replaces: string;
}

/** A request the mock received: its method and path (with its query). */
export interface Forwarded {
  method: string;
  path: string;
}

/**
 * The mock as a route's check sees it. The sweep builds it from a column's listeners
 * (sweep/route-preflight.ts `doctorMockOf`), and `gateways doctor` uses that same view.
 */
export interface DoctorMock {
  /**
   * The mock's base URL as the route's headers name it (RouteContext.mockUrl): the listener
   * the route's requests reach, as the sweep's attempts name it.
   */
  urlFor(route: GatewayRoute): string;
  /** What the route's listener received carrying `nonce`, in arrival order. */
  forwarded(route: GatewayRoute, nonce: string): Promise<Forwarded[]>;
  /** The provider mount the route's backend is served under (`/anthropic`), if any. */
  mountOf?(route: GatewayRoute): RouteMount | undefined;
}

/** Why a sweep would not read a route's cells in one mode. */
export interface PreflightFailure {
  /** One line for the cells' reason and the matrix's scope. */
  reason: string;
  /**
   * The request reached the mock, on a method and path the backend does not serve: the
   * route's path probes still run (their own canary is judged; docs/sweep.md).
   */
  unservedPath: boolean;
}

export interface RouteCheck {
  route: string;
  mode: "non-stream" | "stream";
  expected: RouteStatus;
  clientStatus?: number;
  /** Paths on which the mock received this request (empty: never reached it). */
  reached: string[];
  worked: boolean;
  /** The route table said so (or said nothing: untested). */
  asDocumented: boolean;
  detail: string;
  /** Set when the plain request was not served: the sweep does not read this route and mode. */
  preflight?: PreflightFailure;
}

export const DOCTOR_MODEL = "gatecheck-model";

/** One user text, 16 tokens at most, in the client dialect's own request. */
export function doctorBody(client: ClientDialect, model: string, nonce: string, stream: boolean) {
  return writeRequestBody(client, {
    dialect: client,
    model,
    system: [],
    messages: [{ role: "user", parts: [{ type: "text", text: `gatecheck doctor ${nonce}` }] }],
    tools: [],
    sampling: { maxTokens: 16 },
    stream,
    extras: {},
  });
}

/**
 * Whether the backend's provider serves this request: a POST (every dialect's generate
 * endpoint is one; the mock answers any other method there with 405) to a generate path of
 * the backend dialect, matched as the mock matches it, under the provider's mount if any.
 */
export function servesForwarded(
  backend: Dialect,
  mount: RouteMount | undefined,
  forwarded: Forwarded,
): boolean {
  if (forwarded.method !== "POST") return false;
  const match = dialectOfPath(forwarded.path, mount?.at);
  return match?.dialect === backend && match.kind === "generate";
}

/** The generate path the backend's provider serves, under its mount where it has one. */
export function servedPath(backend: Dialect, mount: RouteMount | undefined, model: string): string {
  const own = dialectModule(backend).routes.generate(encodeURIComponent(model));
  if (!mount || !own.startsWith(mount.replaces)) return own;
  return mount.at + own.slice(mount.replaces.length);
}

const withoutQuery = (path: string) => path.split("?")[0] ?? path;

/** Who serves the route's backend, in words: the persona's provider, or the dialect's. */
function providerOf(route: GatewayRoute): string {
  return route.persona ?? dialectModule(route.backend).provider;
}

function preflightOf(
  route: GatewayRoute,
  mount: RouteMount | undefined,
  model: string,
  forwarded: readonly Forwarded[],
  answered: boolean,
  detail: string,
): PreflightFailure | undefined {
  if (forwarded.some((f) => servesForwarded(route.backend, mount, f))) return undefined;
  if (forwarded.length === 0) {
    // No answer at all (a crash, a hang) is no fact about the route: its cells meet the same,
    // and the sweep's crash and hang handling judges them.
    if (!answered) return undefined;
    return {
      reason: `the plain request never reached the mock${detail ? ` (${detail})` : ""}`,
      unservedPath: false,
    };
  }
  const sent = [...new Set(forwarded.map((f) => `${f.method} ${withoutQuery(f.path)}`))];
  return {
    reason: `forwarded to ${sent.join(", ")}, which the ${providerOf(route)} ${route.backend} backend does not serve (it serves POST ${servedPath(route.backend, mount, model)}); see the base URL or custom host the adapter gives the gateway`,
    unservedPath: true,
  };
}

export async function checkRoute(
  gateway: Pick<RunningGateway, "baseUrl">,
  route: GatewayRoute,
  mock: DoctorMock,
  stream: boolean,
  options: { apiKey?: string; model?: string; timeoutMs?: number } = {},
): Promise<RouteCheck> {
  const nonce = nonceOf(randomBytes(8).toString("hex"));
  const model = options.model ?? DOCTOR_MODEL;
  const mode = stream ? "stream" : "non-stream";
  const expected = (stream ? route.streamStatus : undefined) ?? route.status;
  const path = (stream ? route.streamIngressPath : undefined) ?? route.ingressPath;
  const apiKey = options.apiKey ?? "sk-gatecheck-doctor-0000000000";
  const headers = {
    "content-type": "application/json",
    ...route.headers({ mockUrl: () => mock.urlFor(route), apiKey }),
  };
  let clientStatus: number | undefined;
  let detail = "";
  try {
    const res = await fetch(`${gateway.baseUrl}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(doctorBody(route.client, route.model(model), nonce, stream)),
      signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
    });
    clientStatus = res.status;
    const text = await res.text();
    // A gateway's error may quote the key it was sent; the sweep stores this line.
    if (res.status >= 300)
      detail = `HTTP ${res.status}: ${redactText(text, [apiKey]).slice(0, 160).replace(/\s+/g, " ")}`;
  } catch (error) {
    detail = `transport: ${(error as Error).message}`;
  }
  const forwarded = await mock.forwarded(route, nonce);
  const reached = forwarded.map((f) => f.path);
  const mount = mock.mountOf?.(route);
  const answered = clientStatus !== undefined;
  const served = forwarded.some((f) => servesForwarded(route.backend, mount, f));
  const preflight = preflightOf(route, mount, model, forwarded, answered, detail);
  const worked = clientStatus !== undefined && clientStatus < 300 && served;
  if (!served && !detail) {
    detail = reached.length
      ? `reached ${reached.join(", ")}, not a path the ${providerOf(route)} ${route.backend} backend serves`
      : "never reached the mock";
  }
  if (worked) detail = `reached ${reached.join(", ")}`;
  const asDocumented = expected === "untested" || (expected === "works") === worked;
  return {
    route: route.id,
    mode,
    expected,
    ...(clientStatus !== undefined && { clientStatus }),
    reached,
    worked,
    asDocumented,
    detail,
    ...(preflight && { preflight }),
  };
}

export async function checkRoutes(
  gateway: Pick<RunningGateway, "baseUrl">,
  routes: readonly GatewayRoute[],
  mock: DoctorMock,
  options: { apiKey?: string; model?: string; timeoutMs?: number } = {},
): Promise<RouteCheck[]> {
  const checks: RouteCheck[] = [];
  for (const route of routes) {
    for (const stream of [false, true]) {
      checks.push(await checkRoute(gateway, route, mock, stream, options));
    }
  }
  return checks;
}
