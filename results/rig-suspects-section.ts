/**
 * The matrix's rig suspects: the silent defects the audit (rig-suspects.ts) found a sign of
 * the rig's hand on, per column, each with what showed it. They are held back from the
 * headline, not dropped: a reader checks their bytes before citing them, and a fix of the rig
 * makes them go away or come back as the gateway's.
 */
import type { ColumnHeadline } from "./defects.ts";
import { defectTitle, exampleText, where } from "./headline-section.ts";
import { cellText, clip, count } from "./markdown-text.ts";
import { isRigSuspect, RIG_SIGNS } from "./rig-suspects.ts";

const EVIDENCE_CHARS = 200;

/** Suspects per column in the section; appendix A lists every one, marked with its signs. */
export const SUSPECT_ROWS = 12;

export function renderRigSuspects(heads: readonly ColumnHeadline[]): string[] {
  const columns = heads
    .map((head) => ({ head, suspects: head.defects.filter(isRigSuspect) }))
    .filter((c) => c.suspects.length > 0);
  const lines = ["## Rig suspects: defects the rig may have made", ""];
  if (columns.length === 0) {
    lines.push(
      "The audit found no sign of the rig on any defect (docs/results.md, *Rig suspects*, lists the signs it looks for).",
      "",
    );
    return lines;
  }
  const used = new Set(
    columns.flatMap((c) => c.suspects.flatMap((d) => d.signs ?? [])).map((s) => s.sign),
  );
  lines.push(
    "Held back from the headline: each of these shows a sign that gatecheck's rig (the gateway's configuration, the mock, the route setup) or the lens made it, not the gateway. Read its bytes before citing it (docs/results.md, *Rig suspects*). Signs:",
    "",
    ...RIG_SIGNS.filter((s) => used.has(s.id)).map((s) => `- \`${s.id}\`: ${s.description}`),
    "",
  );
  for (const { head, suspects } of columns) {
    lines.push(
      `### ${head.column}: ${suspects.length} rig suspect${suspects.length === 1 ? "" : "s"}`,
      "",
      "| severity | defect | cells | where | sign | example |",
      "|---|---|---|---|---|---|",
    );
    for (const d of suspects.slice(0, SUSPECT_ROWS)) {
      const signs = (d.signs ?? [])
        .map((s) => `\`${s.sign}\`: ${clip(s.evidence, EVIDENCE_CHARS)}`)
        .join("; ");
      lines.push(
        `| ${d.severity} | ${defectTitle(d)} | ${count(d.cells.length)} | ${cellText(where(d))} | ${cellText(signs)} | ${exampleText(d, true)} |`,
      );
    }
    const rest = suspects.length - SUSPECT_ROWS;
    if (rest > 0) {
      lines.push(
        "",
        `${rest} more rig suspect${rest === 1 ? "" : "s"}: appendix A, marked with their signs.`,
      );
    }
    lines.push("");
  }
  return lines;
}
