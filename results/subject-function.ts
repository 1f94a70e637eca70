/**
 * `gatecheck_subject(client_dialect, field)` in SQL: the subject a probe's field names
 * (probes/subject.ts), for the migration that gives rows written before schema version 4
 * theirs, and for queries over a database's own probes.
 */
import { isClientDialect } from "../dialects/dialect.ts";
import { subjectOf } from "../probes/subject.ts";
import type { Db } from "./schema.ts";

export function registerSubjectOf(db: Db): void {
  db.function("gatecheck_subject", { deterministic: true }, (dialect: unknown, field: unknown) =>
    isClientDialect(dialect) && typeof field === "string" ? subjectOf(dialect, field) : null,
  );
}
