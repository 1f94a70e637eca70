/**
 * Which dialects and field an attempt speaks: a control attempt goes over the gateway's
 * native route for the backend, with the probe's field respelled there. Pure and small, so
 * `rescore` workers (rescore-judge.ts) and `export` can name a stored attempt's route
 * without loading the corpus or the control leg's request building (control-leg.ts).
 */
import { type ClientDialect, type Dialect, isClientDialect } from "../dialects/dialect.ts";
import { dialectOfPath } from "../dialects/routes.ts";
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
