/**
 * Enumerated attributes judged by meaning (dialects/value-tables.ts): where both the client's
 * and the backend's field tables list the values they define, a value is carried when the
 * forwarded one means the same (`service_tier` Chat `default` as Messages `standard_only`), a
 * forwarded value the backend does not define is `mangled (malformed)`, and a value whose
 * meaning the backend has no value for, left out, is `no-equivalent` with the backend's values
 * named. Everything else (an absent value the backend could carry, a backend with no field)
 * is left to the plain value judgement.
 */
import type { RequestAttribute } from "../../dialects/attributes.ts";
import { meaningOf, valuesMeaning, valueTable } from "../../dialects/value-tables.ts";
import { show } from "./describe.ts";
import type { Outcome } from "./judgement.ts";
import type { RequestPair } from "./request-plan.ts";

export function hasValueTable(pair: RequestPair, attribute: RequestAttribute): boolean {
  return (
    valueTable(pair.clientDialect, attribute) !== undefined &&
    valueTable(pair.backend, attribute) !== undefined
  );
}

/** The outcome by meaning, or undefined to judge the value plainly. */
export function meaningJudgement(
  pair: RequestPair,
  attribute: RequestAttribute,
  sent: unknown,
  got: unknown,
): Outcome | undefined {
  const sentMeaning = meaningOf(pair.clientDialect, attribute, sent);
  if (got !== undefined) {
    const gotMeaning = meaningOf(pair.backend, attribute, got);
    if (gotMeaning === undefined) {
      const detail = `${show(sent)} → ${show(got)}, a value ${pair.backend} does not define`;
      return { kind: "mangled", detail, cause: "malformed", sent, got };
    }
    if (sentMeaning === undefined) return undefined;
    const same = gotMeaning === sentMeaning;
    const change = `${show(sent)} → ${show(got)}`;
    const why = same
      ? `both mean ${sentMeaning}`
      : `${show(sent)} means ${sentMeaning}, ${show(got)} ${gotMeaning}`;
    const detail = sent === got ? change : `${change} (${why})`;
    return { kind: same ? "preserved" : "mangled", detail, sent, got };
  }
  if (sentMeaning === undefined) return undefined;
  if (valuesMeaning(pair.backend, attribute, sentMeaning).length > 0) return undefined;
  const has = Object.keys(valueTable(pair.backend, attribute) ?? {}).join(", ");
  const detail = `${show(sent)} → absent (${pair.backend}: no value means ${sentMeaning}; it has ${has})`;
  return { kind: "no-equivalent", detail, sent };
}
