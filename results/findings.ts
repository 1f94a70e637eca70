/**
 * A run's silent defects keyed by cell and subject, read from the `findings` view (schema
 * version 5): the probe's own verdict where it is a silent defect, and every other subject
 * the lens found silently lost, invented or leaked on the cell's attempts (a side finding).
 * The rules of the view are in results/schema.ts and docs/results.md.
 */
import { DIALECTS, type Dialect, type Mode } from "../dialects/dialect.ts";
import { type Cause, isCause } from "../probes/causes.ts";
import { type FindingSeverity, severityOf } from "../probes/lens/severity.ts";
import type { Subject } from "../probes/subject.ts";
import type { VerdictKind } from "../probes/verdict.ts";
import type { CellKey } from "./records.ts";
import type { ResultsStore } from "./store.ts";

export interface FindingRecord extends CellKey {
  runId: string;
  subject: Subject;
  /** The field as the client's dialect spells it. */
  field: string;
  /** Undefined on rows whose verdict list did not say. */
  direction?: "request" | "reply";
  verdict: VerdictKind;
  cause?: Cause;
  /** An example reason (the first in text order where attempts differ). */
  reason: string;
  /** Attempts that gave this verdict on this subject, of `runs` (main and repeats). */
  k: number;
  runs: number;
  /** The probe's own subject (the cell's verdict), or another subject of the same attempts. */
  own: boolean;
  /** The gateway's name and version (gateway_runs; version undefined without a row). */
  gateway: string;
  version?: string;
  /** The attempt whose bytes show it (schema version 8): the main attempt when it gave this
   * verdict, else the first repeat that did; `gatecheck export --attempt-id` writes it. */
  attempt?: { id: number; phase: string; attemptNo: number };
  /** The dialect the cell's route speaks past the gateway (cells.backend_dialect). */
  backend?: Dialect;
  /** What the defect costs, from the severity table (probes/lens/severity.ts), and the row
   * that decided it. */
  severity: FindingSeverity;
  severityRule: string;
}

interface FindingRow {
  run_id: string;
  column: string;
  route_id: string;
  probe_id: string;
  mode: Mode;
  subject: string;
  field: string;
  direction: string | null;
  verdict: VerdictKind;
  cause: string | null;
  reason: string;
  k: number;
  runs: number;
  own: number;
  gateway: string;
  version: string | null;
  attempt_id: number | null;
  phase: string | null;
  attempt_no: number | null;
  backend_dialect: string | null;
}

function toFinding(row: FindingRow): FindingRecord {
  const cause = isCause(row.cause) ? row.cause : undefined;
  const backend = (DIALECTS as readonly string[]).includes(row.backend_dialect ?? "")
    ? (row.backend_dialect as Dialect)
    : undefined;
  const severity = severityOf({ subject: row.subject, verdict: row.verdict, cause, backend });
  return {
    runId: row.run_id,
    column: row.column,
    routeId: row.route_id,
    probeId: row.probe_id,
    mode: row.mode,
    subject: row.subject as Subject,
    field: row.field,
    ...(row.direction === "request" || row.direction === "reply"
      ? { direction: row.direction }
      : {}),
    verdict: row.verdict,
    ...(isCause(row.cause) ? { cause: row.cause } : {}),
    reason: row.reason,
    k: row.k,
    runs: row.runs,
    own: row.own === 1,
    gateway: row.gateway,
    ...(row.version === null ? {} : { version: row.version }),
    ...(row.attempt_id === null
      ? {}
      : {
          attempt: { id: row.attempt_id, phase: row.phase ?? "", attemptNo: row.attempt_no ?? 0 },
        }),
    ...(backend ? { backend } : {}),
    severity: severity.severity,
    severityRule: severity.rule,
  };
}

/** Every finding of the run, in cell order, the cell's own first, each with its severity. */
export function findingsOf(store: ResultsStore, runId: string): FindingRecord[] {
  const rows = store.db
    .prepare(
      `SELECT f.*, c.backend_dialect FROM findings f
       LEFT JOIN cells c ON c.run_id = f.run_id AND c."column" = f."column"
         AND c.route_id = f.route_id AND c.probe_id = f.probe_id AND c.mode = f.mode
       WHERE f.run_id = ?
       ORDER BY f."column", f.route_id, f.probe_id, f.mode, f.own DESC, f.subject, f.verdict`,
    )
    .all(runId) as FindingRow[];
  return rows.map(toFinding);
}
