/**
 * The control leg: the same field sent over the gateway's native route for the backend
 * dialect (client dialect = backend dialect, nothing to translate). A field that survives
 * the native route but not the translated one pins the loss on the translation; a field
 * lost on both is lost by the gateway whatever the route.
 *
 * The probe's client request is read into the canonical model and written in the native
 * dialect, and the field is respelled there. Fields that have no spelling in the native
 * dialect get no control leg.
 */

import { type Dialect, isClientDialect, type Mode } from "../dialects/dialect.ts";
import { dialectModule } from "../dialects/registry.ts";
import { readRequest, writeRequestBody } from "../dialects/request.ts";
import type { GatewayRoute } from "../gateways/adapter.ts";
import { buildClientRequest } from "../probes/corpus/build.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import type { AttemptPlan } from "./attempt.ts";
import { controlField } from "./stored-route.ts";

/** The gateway's native route into `backend`, if it has one that works. */
export function nativeRouteFor(
  routes: readonly GatewayRoute[],
  backend: Dialect,
): GatewayRoute | undefined {
  // A strict-provider flavour is never the control: its listener may reject what the plain one takes.
  return routes.find(
    (r) => r.client === backend && r.backend === backend && r.status !== "fails" && !r.persona,
  );
}

export function controlLeg(
  probe: Probe,
  mode: Mode,
  native: GatewayRoute,
): AttemptPlan | undefined {
  const to = native.client;
  if (!isClientDialect(to) || to === probe.client) return undefined;
  const field = controlField(probe.client, to, probe.field);
  if (field === undefined) return undefined;
  return {
    probe,
    field,
    mode,
    build(nonce, model) {
      const original = buildClientRequest(probe, { nonce, mode, model });
      const canonical = readRequest(probe.client, original.body, { path: original.path });
      const body = writeRequestBody(to, { ...canonical, model });
      // The probe's headers go as they are, except those its own dialect requires, which
      // the native dialect's replace.
      const headers: Record<string, string> = { "content-type": "application/json" };
      const own = dialectModule(probe.client).requiredHeaders;
      for (const [name, value] of Object.entries(probe.headers ?? {})) {
        if (!Object.hasOwn(own, name)) headers[name] = value;
      }
      Object.assign(headers, dialectModule(to).requiredHeaders);
      return { path: native.ingressPath, headers, body };
    },
  };
}
