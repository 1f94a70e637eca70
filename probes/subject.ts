/**
 * A verdict's subject: what was judged, named once for every client dialect. A client's
 * field (`tools[].function.strict` in Chat, `tools[].strict` in Responses and Messages) is
 * one spelling of a subject (`tools.strict`); "who drops strict?" is one question with one
 * answer whatever dialect the client spoke.
 *
 * - request attributes: the canonical attribute (`sampling.stop`, `tools.strict`);
 * - reply features: their dialect-neutral names (`finish_reason`, `tool_calls[].id`);
 * - headers, credentials, failure fields and the path: named as their fields are
 *   (`headers.anthropic-beta`, `credentials.header.x-api-key`, `failure.status`, `path`);
 * - a client key no reader maps: `extras.<key>` (its own spelling, the only one it has);
 * - `upstream`: the upstream reply as a whole (when it could not be read).
 */
import type { ClientDialect } from "../dialects/dialect.ts";
import {
  attributeOf,
  type FailureField,
  isFailureField,
  isReplyFeature,
  isReplyInvariant,
  PATH_FIELD,
  type ReplyFeature,
  type ReplyInvariant,
  type RequestAttribute,
} from "./lens/field-names.ts";

export type Subject =
  | RequestAttribute
  | ReplyFeature
  | FailureField
  | ReplyInvariant
  | typeof PATH_FIELD
  | "upstream"
  | `headers.${string}`
  | `credentials.${string}`
  | `extras.${string}`;

/** The subject of an unmapped client key. */
export function extrasSubject(key: string): `extras.${string}` {
  return `extras.${key}`;
}

/**
 * The subject a client dialect's field names: the attribute it (or one of its aliases)
 * spells, a name that is already a subject, or else an unmapped key.
 */
export function subjectOf(client: ClientDialect, field: string): Subject {
  if (
    isReplyFeature(field) ||
    isFailureField(field) ||
    isReplyInvariant(field) ||
    field === PATH_FIELD ||
    field === "upstream" ||
    field.startsWith("headers.") ||
    field.startsWith("credentials.")
  ) {
    return field as Subject;
  }
  return attributeOf(client, field) ?? extrasSubject(field);
}

/** Whether a subject names a reply feature (judged in the reply direction). */
export function isReplySubject(subject: Subject): subject is ReplyFeature {
  return isReplyFeature(subject);
}
