/**
 * `direct`: no gateway. The client talks to the mock in the backend's own dialect, so the
 * column shows the rig's own noise (client, mock, lens): everything must be clean here.
 */

import type { ClientDialect } from "../../dialects/dialect.ts";
import { authHeaders } from "../../dialects/routes.ts";
import type { GatewayAdapter, GatewayRoute } from "../adapter.ts";
import { gatewayLabel } from "../adapter.ts";
import { attachedGateway } from "../start.ts";

/** Ingress paths as the providers document them (`dialects/routes.ts` holds the same). */
const DIRECT_ROUTES = [
  { client: "openai-chat", path: "/v1/chat/completions" },
  { client: "openai-responses", path: "/v1/responses" },
  { client: "anthropic-messages", path: "/v1/messages" },
] as const satisfies readonly { client: ClientDialect; path: string }[];

function directRoutes(): GatewayRoute[] {
  return DIRECT_ROUTES.map(({ client, path }) => ({
    id: `${client}->${client}`,
    client,
    backend: client,
    ingressPath: path,
    headers: (ctx): Record<string, string> => authHeaders(client, ctx.apiKey),
    model: (backendModel) => backendModel,
    native: true,
    status: "works",
  }));
}

export const direct: GatewayAdapter = {
  name: "direct",
  description: "no gateway: the client calls the mock in the backend's dialect (control column)",
  defaultVersion: "0",
  source: "none",
  install: async () => ({ status: "ok", cached: true }),
  version: async () => "0",
  writeConfig: async () => [],
  // The mock serves every dialect on one listener; routes append their own paths.
  launch: async (ctx) => attachedGateway(gatewayLabel(ctx.spec), ctx.mockUrl("openai-chat")),
  routes: directRoutes,
  fallback: {
    supported: false,
    reason: "no gateway: the client calls the mock itself, there is no second target to move to",
    see: "docs/failure.md#fallback",
  },
};
