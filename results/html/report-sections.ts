/**
 * The Markdown report's sections that the page shows too (results/markdown-report.ts renders
 * them; markdown-html.ts turns them into HTML): the scope, the headline and the grid open
 * the page; every defect, the controls, the cells not measured, failure behaviour (every
 * row), the SDK view and every loop break are folded below the matrix. The page draws its
 * own preservation bars and field matrix.
 */
import { markdownSections } from "../markdown-report.ts";
import type { ReportFacts } from "../report-facts.ts";
import type { ReportSection } from "./report-model.ts";

const TITLES: Record<string, string> = {
  scope: "Scope",
  headline: "Headline",
  "rig-suspects": "Rig suspects",
  grid: "Grid",
  loops: "Agent loops",
  defects: "Every silent defect (leads and known issues)",
  controls: "Positive controls",
  "not-measured": "Cells not measured",
  failure: "Failure behaviour",
  sdk: "What real clients see",
  "loop-breaks": "Every agent loop break",
};

export function reportSections(facts: ReportFacts): ReportSection[] {
  return markdownSections(facts, { failureRows: "all" })
    .filter((s) => s.id in TITLES && s.lines.length > 0)
    .map((s) => ({
      id: s.id,
      title: TITLES[s.id] ?? s.id,
      lines: s.lines,
      folded: s.appendix,
    }));
}
