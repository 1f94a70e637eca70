/**
 * `gateways doctor`: bring a gateway up against a mock, send one small request per route
 * (non-stream and stream), and report what reached the mock. A route passes when the
 * client got a 2xx and the mock received the request, tagged by its nonce, on a path of
 * the route's backend dialect. The verdict compares with the route table: a route we
 * document as failing that still fails is "as documented", not a doctor failure.
 */

import { randomUUID } from "node:crypto";
import type { ClientDialect, Dialect } from "../dialects/dialect.ts";
import { writeRequestBody } from "../dialects/request.ts";
import { dialectOfPath } from "../dialects/routes.ts";
import type { GatewayRoute, RouteStatus, RunningGateway } from "./adapter.ts";

/** What the doctor needs from a mock: its URL and the paths of requests carrying a text. */
export interface DoctorMock {
  url: string;
  pathsContaining(text: string): Promise<string[]>;
  /** The provider mount a route's backend is served under (`/anthropic`), if any. */
  mountOf?(route: GatewayRoute): string | undefined;
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

function backendOf(path: string, mount?: string): Dialect | undefined {
  return dialectOfPath(path, mount)?.dialect;
}

export async function checkRoute(
  gateway: RunningGateway,
  route: GatewayRoute,
  mock: DoctorMock,
  stream: boolean,
  options: { apiKey?: string; timeoutMs?: number } = {},
): Promise<RouteCheck> {
  const nonce = `GCDOC-${randomUUID().slice(0, 8)}`;
  const mode = stream ? "stream" : "non-stream";
  const expected = (stream ? route.streamStatus : undefined) ?? route.status;
  const path = (stream ? route.streamIngressPath : undefined) ?? route.ingressPath;
  const headers = {
    "content-type": "application/json",
    ...route.headers({
      mockUrl: () => mock.url,
      apiKey: options.apiKey ?? "sk-gatecheck-doctor-0000000000",
    }),
  };
  let clientStatus: number | undefined;
  let detail = "";
  try {
    const res = await fetch(`${gateway.baseUrl}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(doctorBody(route.client, route.model(DOCTOR_MODEL), nonce, stream)),
      signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
    });
    clientStatus = res.status;
    const text = await res.text();
    if (res.status >= 300)
      detail = `HTTP ${res.status}: ${text.slice(0, 160).replace(/\s+/g, " ")}`;
  } catch (error) {
    detail = `transport: ${(error as Error).message}`;
  }
  const reached = await mock.pathsContaining(nonce);
  const mount = mock.mountOf?.(route);
  const rightDialect = reached.some((p) => backendOf(p, mount) === route.backend);
  const worked = clientStatus !== undefined && clientStatus < 300 && rightDialect;
  if (!detail && !rightDialect) {
    detail = reached.length
      ? `reached ${reached.join(", ")}, not a ${route.backend} path`
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
  };
}

export async function checkRoutes(
  gateway: RunningGateway,
  routes: readonly GatewayRoute[],
  mock: DoctorMock,
): Promise<RouteCheck[]> {
  const checks: RouteCheck[] = [];
  for (const route of routes) {
    for (const stream of [false, true]) checks.push(await checkRoute(gateway, route, mock, stream));
  }
  return checks;
}
