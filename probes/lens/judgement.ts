/**
 * What a judge returns before the verdict is named: an outcome, or "absent" when the value did
 * not arrive (the caller then decides between dropped and no-equivalent from the tables).
 */
import type { Cause } from "../causes.ts";
import type { VerdictKind } from "../verdict.ts";
import type { NoEquivalentRow } from "./no-equivalent.ts";

export interface Outcome {
  kind: VerdictKind;
  /** The two values compared, without the field name (judge-request.ts prefixes it). */
  detail: string;
  cause?: Cause;
  /** The two values compared, where there is one each (kept on the verdict when small). */
  sent?: unknown;
  got?: unknown;
}

/**
 * What the outcome would be if the backend has no place for the attribute at all. `rowOf`
 * names the attribute whose no-equivalent row applies when it is not the field's own (a
 * Responses reasoning item's summary travels as reasoning text).
 */
export type Absent = {
  absent: true;
  detail: string;
  rowOf?: NoEquivalentRow["subject"];
  /** The value sent, where there is one. */
  sent?: unknown;
};

export type Judgement = Outcome | Absent;

export function isAbsent(j: Judgement): j is Absent {
  return "absent" in j;
}
