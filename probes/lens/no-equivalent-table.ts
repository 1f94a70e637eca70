/**
 * The no-equivalent table: every subject a dialect cannot express, with the reason and the
 * page that says so. A view of the absent rows of the dialects' field tables
 * (`dialects/<d>/fields.ts`), each row given the dialect it belongs to as its target.
 */
import {
  isRefinedSubject,
  REFINED_SUBJECTS,
  type RefinedSubject,
} from "../../dialects/attributes.ts";
import { DIALECTS, type Dialect } from "../../dialects/dialect.ts";
import type { AbsentRow } from "../../dialects/field-table.ts";
import { DIALECT_MODULES } from "../../dialects/registry.ts";

export { isRefinedSubject, REFINED_SUBJECTS, type RefinedSubject };

export interface NoEquivalentRow extends AbsentRow {
  target: Dialect;
}

export const NO_EQUIVALENT: readonly NoEquivalentRow[] = DIALECTS.flatMap((target) =>
  DIALECT_MODULES[target].fields.absent.map((row) => ({ ...row, target })),
);
