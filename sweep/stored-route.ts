/**
 * Which field an attempt speaks: a control attempt goes over the gateway's native route for
 * the backend, with the probe's field respelled there. Pure and small, so `rescore` workers
 * (rescore-judge.ts) can name a stored attempt's field without loading the corpus or the
 * control leg's request building (control-leg.ts).
 */
import type { ClientDialect } from "../dialects/dialect.ts";
import { attributeOf, fieldName, isReplyFeature, PATH_FIELD } from "../probes/lens/field-names.ts";

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
 * The field a stored attempt was judged for. A control attempt went over the gateway's native
 * route for its backend (its exchange's route says which), with the probe's field respelled
 * in that dialect; the others spoke the cell's route.
 */
export function storedAttemptField(
  phase: string,
  cell: { client: ClientDialect; field: string },
  judgedClient: ClientDialect,
): string {
  if (phase !== "control") return cell.field;
  return controlField(cell.client, judgedClient, cell.field) ?? cell.field;
}
