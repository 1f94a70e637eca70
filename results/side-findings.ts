/**
 * The side findings of a run in the JSON summary (`report --json`, `summary.json`): per gateway
 * column, every silent defect found on a subject that was not the probe's own (results/
 * findings.ts, `own = 0`), one entry per subject, verdict and cause with the cells it was
 * found on and one example that leads to bytes (its attempt id). They are kept apart from
 * the column's verdict counts and preservation rate, which are about the probes' own fields:
 * a side finding repeated on a thousand cells is one entry with `cells: 1000`, never a
 * thousand verdicts in a rate (docs/results.md "Side findings in the views").
 */
import type { Mode } from "../dialects/dialect.ts";
import type { Cause } from "../probes/causes.ts";
import type { VerdictKind } from "../probes/verdict.ts";
import type { FindingRecord } from "./findings.ts";
import { cellKeyString } from "./records.ts";

export interface SideFindingExample {
  routeId: string;
  probeId: string;
  mode: Mode;
  /** `gatecheck export --attempt-id` writes this attempt's exchange. */
  attemptId?: number;
  reason: string;
}

export interface SideFinding {
  subject: string;
  verdict: VerdictKind;
  cause?: Cause;
  direction?: "request" | "reply";
  /** Cells (route, probe, mode) whose attempts gave it, none of them asking about `subject`. */
  cells: number;
  routes: string[];
  example: SideFindingExample;
}

export interface ColumnSideFindings {
  /** Distinct cells with at least one side finding. */
  cells: number;
  findings: SideFinding[];
}

/** Per column, its side findings, most cells first. Columns without any are absent. */
export function sideFindingsOf(
  findings: readonly FindingRecord[],
): Map<string, ColumnSideFindings> {
  const groups = new Map<
    string,
    { finding: SideFinding; cells: Set<string>; routes: Set<string> }
  >();
  const cellsOfColumn = new Map<string, Set<string>>();
  for (const f of findings) {
    if (f.own) continue;
    const cell = cellKeyString(f);
    const columnCells = cellsOfColumn.get(f.column) ?? new Set<string>();
    cellsOfColumn.set(f.column, columnCells.add(cell));
    const id = [f.column, f.subject, f.verdict, f.cause ?? ""].join("\u0000");
    let group = groups.get(id);
    if (!group) {
      group = {
        finding: {
          subject: f.subject,
          verdict: f.verdict,
          ...(f.cause ? { cause: f.cause } : {}),
          ...(f.direction ? { direction: f.direction } : {}),
          cells: 0,
          routes: [],
          example: {
            routeId: f.routeId,
            probeId: f.probeId,
            mode: f.mode,
            ...(f.attempt ? { attemptId: f.attempt.id } : {}),
            reason: f.reason,
          },
        },
        cells: new Set(),
        routes: new Set(),
      };
      groups.set(id, group);
    }
    group.cells.add(cell);
    group.routes.add(f.routeId);
  }
  const out = new Map<string, ColumnSideFindings>();
  for (const [id, group] of groups) {
    const column = id.slice(0, id.indexOf("\u0000"));
    const held = out.get(column) ?? {
      cells: cellsOfColumn.get(column)?.size ?? 0,
      findings: [],
    };
    held.findings.push({
      ...group.finding,
      cells: group.cells.size,
      routes: [...group.routes].sort(),
    });
    out.set(column, held);
  }
  for (const held of out.values()) {
    held.findings.sort(
      (a, b) =>
        b.cells - a.cells ||
        a.subject.localeCompare(b.subject) ||
        a.verdict.localeCompare(b.verdict) ||
        (a.cause ?? "").localeCompare(b.cause ?? ""),
    );
  }
  return out;
}
