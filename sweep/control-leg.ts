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
import {
  type ClientDialect,
  type Dialect,
  isClientDialect,
  type Mode,
} from "../dialects/dialect.ts";
import { readRequest, writeRequest } from "../dialects/request.ts";
import { dialectOfPath } from "../dialects/routes.ts";
import type { GatewayRoute } from "../gateways/adapter.ts";
import { buildClientRequest } from "../probes/corpus/build.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import { attributeOf, fieldName, isReplyFeature, PATH_FIELD } from "../probes/lens/field-names.ts";
import type { AttemptPlan } from "./attempt.ts";

/** The gateway's native route into `backend`, if it has one that works. */
export function nativeRouteFor(
  routes: readonly GatewayRoute[],
  backend: Dialect,
): GatewayRoute | undefined {
  return routes.find((r) => r.client === backend && r.backend === backend && r.status !== "fails");
}

/** The field's spelling in the native dialect: request attributes are respelled; reply
 * features, headers, credentials and the path keep their names. */
export function controlField(
  from: ClientDialect,
  to: ClientDialect,
  field: string,
): string | undefined {
  const attribute = attributeOf(from, field);
  if (attribute !== undefined) return fieldName(to, attribute);
  const sameEverywhere =
    isReplyFeature(field) ||
    field === PATH_FIELD ||
    field.startsWith("headers.") ||
    field.startsWith("credentials.");
  return sameEverywhere ? field : undefined;
}

/**
 * The dialects and field a stored attempt was judged with. A control attempt went over the
 * gateway's native route for its backend, which its stored path names; the others spoke the
 * cell's route.
 */
export function storedAttemptRoute(
  attempt: { phase: string; path: string },
  cell: { client: ClientDialect; backend: Dialect; field: string },
): { client: ClientDialect; backend: Dialect; field: string } {
  if (attempt.phase !== "control") return cell;
  const native = dialectOfPath(attempt.path)?.dialect ?? cell.backend;
  if (!isClientDialect(native)) return cell;
  return {
    client: native,
    backend: native,
    field: controlField(cell.client, native, cell.field) ?? cell.field,
  };
}

/** Base headers a native client of the dialect sends. */
const NATIVE_HEADERS: Record<ClientDialect, Record<string, string>> = {
  "anthropic-messages": { "content-type": "application/json", "anthropic-version": "2023-06-01" },
  "openai-chat": { "content-type": "application/json" },
  "openai-responses": { "content-type": "application/json" },
};

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
      const body = writeRequest(to, { ...canonical, model });
      const headers: Record<string, string> = { ...NATIVE_HEADERS[to], ...probe.headers };
      if (probe.client === "anthropic-messages") delete headers["anthropic-version"];
      if (to === "anthropic-messages") headers["anthropic-version"] = "2023-06-01";
      return { path: native.ingressPath, headers, body };
    },
  };
}
