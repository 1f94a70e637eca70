/**
 * The side findings' part of JUnit (junit-report.ts): one test case per gateway column and
 * side finding (subject, verdict, cause: results/side-findings.ts), failing unless an
 * accept entry covers it. One case per finding, not per cell, so a framing error found on
 * 900 cells is one failure with its cells listed, and its name stays the same from run to
 * run for a CI's history. An accept entry's `field` matches a side finding by its subject
 * (`stream.framing`) or by the field's spelling in the client dialect.
 */
import { type FindingSeverity, severityRank } from "../probes/lens/severity.ts";
import type { AcceptedLoss } from "./accept-file.ts";
import type { FindingRecord } from "./findings.ts";
import { gatewayOfColumn } from "./run-summary.ts";

/** Cells listed in a failure's body; the rest are counted. */
const LISTED_CELLS = 20;

export interface SideCase {
  column: string;
  classname: string;
  name: string;
  verdict: string;
  /** The worst severity among its cells (a target can decide it) and the table row. */
  severity: FindingSeverity;
  severityRule: string;
  message: string;
  body: string;
  /** The first entry accepting it, if any. */
  acceptance?: AcceptedLoss;
}

export function sideFindingCases(
  findings: readonly FindingRecord[],
  accepts: readonly AcceptedLoss[],
): SideCase[] {
  const groups = new Map<string, FindingRecord[]>();
  for (const f of findings) {
    if (f.own) continue;
    const id = [f.column, f.subject, f.verdict, f.cause ?? ""].join("\u0000");
    groups.set(id, [...(groups.get(id) ?? []), f]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0] as FindingRecord;
    const worst = group.reduce((a, f) =>
      severityRank(f.severity) < severityRank(a.severity) ? f : a,
    );
    const what = `${first.verdict} ${first.subject}${first.cause ? ` (${first.cause})` : ""}`;
    const example = first.attempt ? ` #${first.attempt.id}` : "";
    const cells = group.map(
      (f) =>
        `${f.routeId} ${f.mode} [${f.probeId}]${f.runs > 1 ? ` ${f.k}/${f.runs}` : ""}${f.attempt ? ` #${f.attempt.id}` : ""}`,
    );
    const more = cells.length - LISTED_CELLS;
    const body = [
      `side finding: ${what}, on cells whose probe asked about another field`,
      `severity: ${worst.severity} (${worst.severityRule})`,
      `example${example}: ${first.reason}`,
      ...(first.attempt ? [`bytes: npx gatecheck export --attempt-id ${first.attempt.id}`] : []),
      `cells (${cells.length}):`,
      ...cells.slice(0, LISTED_CELLS),
      ...(more > 0 ? [`… ${more} more (the findings view has them all)`] : []),
    ];
    const fields = new Set(group.map((f) => f.field));
    const gateway = gatewayOfColumn(first.column);
    const acceptance = accepts.find(
      (a) =>
        (a.gateway === gateway || a.gateway === first.column) &&
        (a.field === first.subject || fields.has(a.field)) &&
        a.verdict === first.verdict,
    );
    return {
      column: first.column,
      classname: `gatecheck.${first.column}.side-findings`,
      name: `side finding: ${what}`,
      verdict: first.verdict,
      severity: worst.severity,
      severityRule: worst.severityRule,
      message: `${what} on ${group.length} cell${group.length === 1 ? "" : "s"} of other probes${example ? `, e.g.${example}` : ""}: ${first.reason}`,
      body: body.join("\n"),
      ...(acceptance ? { acceptance } : {}),
    };
  });
}
