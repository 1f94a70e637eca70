/**
 * The matrix's rig suspects: the silent defects the audit (rig-suspects.ts) found a sign of
 * the rig's hand on, each with what showed it. They are held back from the headline, not
 * dropped: a reader checks their bytes before citing them, and a fix of the rig makes them go
 * away or come back as the gateway's. One row per defect and signs, with every column that
 * shows it (a defect every gateway shows is one row, not one per column).
 */

import { severityRank } from "../probes/lens/severity.ts";
import type { ColumnHeadline, Defect } from "./defects.ts";
import { defectTitle, exampleText, where } from "./headline-section.ts";
import { clip, count, mdCode, mdText, someOf } from "./markdown-text.ts";
import { isRigSuspect, RIG_SIGNS } from "./rig-suspects.ts";

const EVIDENCE_CHARS = 200;

/** Rows in the section; appendix A lists every suspect of every column, marked with its signs. */
export const SUSPECT_ROWS = 30;

interface SuspectRow {
  first: Defect;
  columns: string[];
  cells: number;
}

export function renderRigSuspects(heads: readonly ColumnHeadline[]): string[] {
  const rows = new Map<string, SuspectRow>();
  for (const head of heads) {
    for (const d of head.defects.filter(isRigSuspect)) {
      const key = [d.severity, d.title, (d.signs ?? []).map((s) => s.sign).join(",")].join(
        "\u0000",
      );
      const row = rows.get(key);
      if (row) {
        row.columns.push(head.column);
        row.cells += d.cells.length;
      } else rows.set(key, { first: d, columns: [head.column], cells: d.cells.length });
    }
  }
  const lines = ["## Rig suspects: defects the rig may have made", ""];
  if (rows.size === 0) {
    lines.push(
      "The audit found no sign of the rig on any defect (docs/results.md, *Rig suspects*, lists the signs it looks for).",
      "",
    );
    return lines;
  }
  const ranked = [...rows.values()].sort(
    (a, b) =>
      severityRank(a.first.severity) - severityRank(b.first.severity) ||
      b.columns.length - a.columns.length ||
      b.cells - a.cells,
  );
  const used = new Set(ranked.flatMap((r) => (r.first.signs ?? []).map((s) => s.sign)));
  lines.push(
    "Held back from the headline: each of these shows a sign that gatecheck's rig (the gateway's configuration, the mock, the route setup) or the lens made it, not the gateway. Read its bytes before citing it (docs/results.md, *Rig suspects*). One row per defect, with the columns that show it; where, the sign and the example are the first column's. Signs:",
    "",
    ...RIG_SIGNS.filter((s) => used.has(s.id)).map((s) => `- \`${s.id}\`: ${s.description}`),
    "",
    "| severity | defect | columns | cells | where | sign | example |",
    "|---|---|---|---|---|---|---|",
  );
  for (const { first: d, columns, cells } of ranked.slice(0, SUSPECT_ROWS)) {
    const signs = (d.signs ?? [])
      .map((s) => `${mdCode(s.sign)}: ${mdText(clip(s.evidence, EVIDENCE_CHARS))}`)
      .join("; ");
    lines.push(
      `| ${d.severity} | ${defectTitle(d)} | ${mdText(someOf(columns, 3))} | ${count(cells)} | ${where(d)} | ${signs} | ${exampleText(d, true)} |`,
    );
  }
  const rest = ranked.length - SUSPECT_ROWS;
  if (rest > 0) {
    lines.push(
      "",
      `${rest} more rig suspect${rest === 1 ? "" : "s"}: appendix A, marked with their signs.`,
    );
  }
  lines.push("");
  return lines;
}
