/**
 * The diff between two runs as HTML: regressions first, then new silent defects, fixed
 * cells, other verdict changes, gateway changes and probes that changed (not compared).
 * The comparison itself is `results/run-diff.ts`; this only draws it.
 */
import type { CellChange, CellSide, RunDiff } from "../run-diff.ts";
import { VERDICT_TOKEN } from "../verdict-tokens.ts";
import { esc } from "./html-escape.ts";
import { verdictClass } from "./verdict-palette.ts";

export function renderDiffSection(diff: RunDiff): string {
  const sections: [string, string, CellChange[]][] = [
    ["regressions", "Regressions: clean → silent defect", diff.regressions],
    ["new-silent", "New silent defects", diff.newSilent],
    ["fixed", "Fixed: silent defect → clean", diff.fixed],
    ["other", "Other verdict changes", diff.otherChanges],
    [
      "new-findings",
      "New side findings: a silent defect on a subject not the probe's own",
      diff.newFindings,
    ],
    ["fixed-findings", "Side findings gone", diff.fixedFindings],
  ];
  const gateways = diff.gatewayChanges.map(
    (g) => `<li>${esc(g.gateway)}: ${esc(g.before ?? "absent")} → ${esc(g.after ?? "absent")}</li>`,
  );
  const probes = diff.changedProbes.map(
    (p) =>
      `<li><code>${esc(p.probeId)}</code>: ${esc(p.hashA.join(","))} → ${esc(p.hashB.join(","))}</li>`,
  );
  return `<section id="diff"><h2>Changes: <code>${esc(diff.runA)}</code> → <code>${esc(diff.runB)}</code></h2>
<p class="note">${diff.compared} cells compared; ${diff.regressions.length} regressions, ${diff.newSilent.length} new silent defects, ${diff.fixed.length} fixed, ${diff.newFindings.length} new side findings.</p>
${sections.map(([id, title, changes]) => changeTable(id, title, changes)).join("\n")}
<h3>Gateway changes (${diff.gatewayChanges.length})</h3><ul>${gateways.join("") || "<li>None.</li>"}</ul>
<h3>Probes changed, not compared (${diff.changedProbes.length})</h3><ul>${probes.join("") || "<li>None.</li>"}</ul>
</section>`;
}

function sideChip(side: CellSide | undefined): string {
  if (!side) return `<span class="chip none">absent</span>`;
  const kn = side.runs > 1 ? ` ${side.determinism}/${side.runs}` : "";
  return `<span class="chip ${verdictClass(side.verdict)}">${esc(VERDICT_TOKEN[side.verdict] + kn)}</span>`;
}

function changeTable(id: string, title: string, changes: CellChange[]): string {
  if (changes.length === 0) return `<h3 id="diff-${id}">${esc(title)} (0)</h3><p>None.</p>`;
  const rows = changes.map(
    (c) =>
      `<tr><td>${esc(c.after?.column ?? c.before?.column ?? c.gateway)}</td><td>${esc(c.routeId)}</td><td>${esc(c.mode)}</td><td><code>${esc(c.field)}</code> <span class="probe">${esc(c.probeId)}</span>${c.subject ? ` <span class="side">side: ${esc(c.subject)}</span>` : ""}</td><td>${sideChip(c.before)}</td><td>${sideChip(c.after)}</td><td>${esc((c.after ?? c.before)?.reason ?? "")}</td></tr>`,
  );
  return `<h3 id="diff-${id}">${esc(title)} (${changes.length})</h3>
<table class="diff"><thead><tr><th>gateway</th><th>route</th><th>mode</th><th>field</th><th>before</th><th>after</th><th>reason</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** A whole page holding only a diff (for `serve`'s `/diff/:a/:b`). */
export function renderDiffPage(diff: RunDiff, css: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>gatecheck diff ${esc(diff.runA)} → ${esc(diff.runB)}</title><style>${css}</style></head><body><main>${renderDiffSection(diff)}</main></body></html>
`;
}
