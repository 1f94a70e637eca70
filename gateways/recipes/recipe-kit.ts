/**
 * Small helpers the binary recipes share: the fake provider key they write into configs,
 * route rows as data, and quoting for YAML/TOML (a JSON string is a valid scalar in both).
 */

import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ClientDialect, Dialect } from "../../dialects/dialect.ts";
import { authHeaders } from "../../dialects/routes.ts";
import type { GatewayRoute, LaunchContext, RouteStatus } from "../adapter.ts";

/** The provider key recipes configure; the mock redacts it, the lens knows it is ours. */
export const RECIPE_PROVIDER_KEY = "sk-gatecheck-recipe-provider-000000";

/** The model name recipes with a fixed model table configure. */
export const RECIPE_MODEL = "gatecheck-model";

export const q = (value: string): string => JSON.stringify(value);

export async function writeWorkFile(
  ctx: LaunchContext,
  relative: string,
  text: string,
): Promise<string> {
  const path = join(ctx.workdir, relative);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  return path;
}

export interface RecipeRouteRow {
  id: string;
  client: ClientDialect;
  backend: Dialect;
  ingressPath: string;
  /** The model the client sends, from the backend model the sweep wants. */
  model: (backendModel: string) => string;
  status?: RouteStatus;
  notes?: string;
  /** The strict provider (mock persona) this route's backend plays. */
  persona?: string;
}

/**
 * Rows of a gateway that picks the backend from a `provider/` model prefix: one row per
 * [client dialect, backend dialect, prefix], on that client dialect's ingress path.
 */
export function prefixedRows(
  ingress: Partial<Record<ClientDialect, string>>,
  table: readonly (readonly [ClientDialect, Dialect, string])[],
): RecipeRouteRow[] {
  return table.map(([client, backend, prefix]) => {
    const ingressPath = ingress[client];
    if (!ingressPath)
      throw new Error(`recipe table names ${client} but gives no ingress path for it`);
    return {
      id: `${client}->${backend}`,
      client,
      backend,
      ingressPath,
      model: (m) => `${prefix}/${m}`,
    };
  });
}

/** Route rows to routes; recipes authenticate to the gateway as each client dialect would. */
export function recipeRoutes(rows: readonly RecipeRouteRow[]): GatewayRoute[] {
  return rows.map((row) => {
    const route: GatewayRoute = {
      id: row.id,
      client: row.client,
      backend: row.backend,
      ingressPath: row.ingressPath,
      headers: (ctx): Record<string, string> => authHeaders(row.client, ctx.apiKey),
      model: row.model,
      native: row.client === row.backend && !row.persona,
      // Recipes run only where the binary exists; none could be run on the build machine.
      status: row.status ?? "untested",
    };
    if (row.notes) route.notes = row.notes;
    if (row.persona) route.persona = row.persona;
    return route;
  });
}
