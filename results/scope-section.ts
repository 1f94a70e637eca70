/**
 * The scope of a run in Markdown (scope.ts holds the facts): first, before any number, what
 * was not measured and why; the positive controls with their whole denominator; then in the
 * appendix every control and every group of cells not measured.
 */
import { clip, count, mdText, someOf } from "./markdown-text.ts";
import { CONTROL_STATES, type PositiveControl } from "./positive-controls.ts";
import { PREFLIGHT_REASON, type RunScope } from "./scope.ts";
import { knownIssueLink, VERDICT_TOKEN } from "./verdict-tokens.ts";

/** Groups of unmeasured cells shown in the scope; the rest are in appendix D. */
const SCOPE_GROUPS = 6;

export function controlCounts(controls: readonly PositiveControl[]): string {
  const n = (state: string) => controls.filter((c) => c.state === state).length;
  return CONTROL_STATES.map((s) => `${n(s)} ${s}`).join(" · ");
}

/** A gateway's reason without its own column name in front (launchers write `column: why`). */
function ownReason(column: string, reason: string): string {
  return reason.startsWith(`${column}: `) ? reason.slice(column.length + 2) : reason;
}

export function renderScope(scope: RunScope): string[] {
  const lines = ["## Scope: what was measured, and what was not", ""];
  const cells = scope.measured.reduce((a, m) => a + m.cells, 0);
  lines.push(
    `- **Measured**: ${scope.measured.length} gateway columns, ${count(cells)} cells: ${scope.measured.map((m) => `${mdText(m.column)} (${count(m.cells)} cells, ${m.routes} routes)`).join(", ")}.`,
  );
  lines.push(
    scope.absent.length === 0
      ? "- **Columns not run**: none."
      : `- **Columns not run** (no rate, no cells counted as clean): ${scope.absent.map((g) => `${mdText(g.column)}: ${mdText(g.status)}${g.reason ? `, ${mdText(ownReason(g.column, g.reason))}` : ""}`).join("; ")}.`,
  );
  lines.push(
    scope.preflightFailed.length === 0
      ? "- **Routes that failed their preflight**: none."
      : `- **Routes that failed their preflight** (not swept: their cells \`not-run\`, never findings; docs/sweep.md): ${scope.preflightFailed.map((r) => `${mdText(r.column)} ${mdText(r.route)} (${r.modes.join(", ")}; ${count(r.cells)} cells): ${mdText(r.reason)}`).join("; ")}.`,
  );
  const absent = new Set(scope.absent.map((g) => g.column));
  const whole = scope.notMeasured
    .filter((g) => !absent.has(g.column) && !g.reason.startsWith(PREFLIGHT_REASON))
    .flatMap((g) =>
      g.wholeRoutes.map(
        (r) => `${mdText(g.column)} ${mdText(r)} (${g.verdict}: ${mdText(clip(g.reason, 90))})`,
      ),
    );
  lines.push(
    whole.length === 0
      ? "- **Routes offered but not measured**: none."
      : `- **Routes offered but not measured** (every cell \`not-run\` or \`error\`): ${whole.join("; ")}.`,
  );
  const unmeasured = scope.notMeasured.reduce((a, g) => a + g.cells.length, 0);
  if (unmeasured === 0) lines.push("- **Cells not measured**: none.");
  else {
    lines.push(
      `- **Cells not measured**: ${count(unmeasured)} (never counted as clean), by reason:`,
      "",
      "  | column | verdict | cells | routes | reason |",
      "  |---|---|---|---|---|",
      ...scope.notMeasured
        .slice(0, SCOPE_GROUPS)
        .map(
          (g) =>
            `  | ${mdText(g.column)} | ${VERDICT_TOKEN[g.verdict]} | ${g.cells.length} | ${g.routes.length} | ${mdText(clip(g.reason, 110))} |`,
        ),
      "",
    );
    if (scope.notMeasured.length > SCOPE_GROUPS) {
      lines.push(`  ${scope.notMeasured.length - SCOPE_GROUPS} more reasons: appendix D.`, "");
    }
  }
  const controls = scope.controls;
  if (controls.length === 0)
    lines.push("- **Positive controls**: none of this run's probes cites a known issue.");
  else {
    const why = new Map<string, number>();
    for (const c of controls) {
      if (c.state !== "not measured") continue;
      const reason = (c.why ?? "").replace(/:.*$/, "");
      why.set(reason, (why.get(reason) ?? 0) + 1);
    }
    const whyText = [...why].map(([r, n]) => `${n} × ${r}`).join("; ");
    lines.push(
      `- **Positive controls** (known issues this run's probes cite): ${controls.length}: ${controlCounts(controls)}${whyText ? ` (${mdText(whyText)})` : ""}. Appendix C.`,
    );
  }
  lines.push("");
  return lines;
}

export function renderControlAppendix(controls: readonly PositiveControl[]): string[] {
  const lines = [
    "## C. Positive controls",
    "",
    `Every known issue this run's probes cite, one row per probe and gateway: ${controlCounts(controls)}.`,
    "",
  ];
  if (controls.length === 0) return [...lines, "None.", ""];
  lines.push(
    "| state | known issue | gateway | probe | versions cited | cells here | why not measured |",
    "|---|---|---|---|---|---|---|",
  );
  for (const c of controls) {
    const verdicts = new Map<string, number>();
    for (const cell of c.cells) verdicts.set(cell.verdict, (verdicts.get(cell.verdict) ?? 0) + 1);
    const cells = [...verdicts].map(([v, n]) => `${n} ${v}`).join(", ") || "none";
    lines.push(
      `| ${c.state} | ${knownIssueLink(c.url)} | ${mdText(c.gateway)} | ${mdText(c.probeId)} | ${mdText(c.versions)}${c.backends ? ` (${mdText(c.backends.join(", "))})` : ""} | ${cells} | ${mdText(c.why ?? "")} |`,
    );
  }
  return [...lines, ""];
}

export function renderNotMeasuredAppendix(scope: RunScope): string[] {
  const lines = ["## D. Cells not measured", ""];
  if (scope.notMeasured.length === 0) return [...lines, "None.", ""];
  lines.push(
    "| column | verdict | cells | routes | probes | reason |",
    "|---|---|---|---|---|---|",
  );
  for (const g of scope.notMeasured) {
    const probes = [...new Set(g.cells.map((c) => c.probeId))].sort();
    lines.push(
      `| ${mdText(g.column)} | ${VERDICT_TOKEN[g.verdict]} | ${g.cells.length} | ${mdText(someOf(g.routes, 4))} | ${mdText(someOf(probes, 5))} | ${mdText(g.reason)} |`,
    );
  }
  return [...lines, ""];
}
