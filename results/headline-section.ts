/**
 * The matrix's headline, and its appendix: per gateway column, the distinct silent defects
 * (defects.ts) ranked by severity and cells explained, each with an example reason. The
 * headline shows the first HEADLINE_ROWS of each column; the appendix lists them all with
 * their probes. A column whose clients got no answer says so in its heading, never reading
 * as clean.
 */
import type { ColumnHeadline, Defect } from "./defects.ts";
import { clip, count, mdText, modesText, someOf } from "./markdown-text.ts";
import { isRigSuspect } from "./rig-suspects.ts";
import { knownIssueLink } from "./verdict-tokens.ts";

/** Defects per column in the headline; the rest are in the appendix. */
export const HEADLINE_ROWS = 8;

const EXAMPLE_CHARS = 110;

export function columnHeading(head: ColumnHeadline): string {
  if (head.status !== "ok" && head.judged === 0) {
    return `${mdText(head.column)}: not measured (${mdText(head.status)}${head.reason ? `: ${mdText(head.reason)}` : ""})`;
  }
  const parts: string[] = [];
  const cited = head.defects.filter((d) => !isRigSuspect(d));
  const distinct = cited.filter((d) => d.rule !== "failed-delivery").length;
  const suspects = head.defects.length - cited.length;
  parts.push(
    distinct === 0
      ? `no silent defect in ${count(head.judged)} judged cells`
      : `${distinct} distinct silent defect${distinct === 1 ? "" : "s"} (${severityCounts(cited.filter((d) => d.rule !== "failed-delivery"))})`,
  );
  const delivery = cited.find((d) => d.rule === "failed-delivery");
  if (delivery) parts.push(`failed delivery on ${count(delivery.cells.length)} cells`);
  if (suspects > 0) parts.push(`${suspects} rig suspect${suspects === 1 ? "" : "s"} held back`);
  if (head.withDefect > 0) {
    parts.push(`${count(head.withDefect)} of ${count(head.cells)} cells affected`);
  }
  if (head.rejected > 0) parts.push(`${count(head.rejected)} rejected loudly`);
  return `${mdText(head.column)}: ${parts.join(" · ")}`;
}

export function where(d: Defect): string {
  const routes = d.routes.length === 1 ? mdText(d.routes[0] ?? "") : `${d.routes.length} routes`;
  return `${routes} · ${modesText(d.modes)}`;
}

/** A defect's title is Markdown already, its data escaped where defects.ts wrote it. */
export function defectTitle(d: Defect): string {
  const issues = d.knownIssues.map((i) => ` [${knownIssueLink(i)}]`).join("");
  return `${d.rule === "failed-delivery" ? `**${d.title}**` : d.title}${issues}`;
}

/** The example reason, after the attempt that shows it (`#id`) and, in the appendix, its cell. */
export function exampleText(d: Defect, withCell: boolean): string {
  const a = d.exampleAttempt;
  const reason = clip(d.example, EXAMPLE_CHARS);
  if (!a) return mdText(reason);
  const cell = withCell
    ? ` ${mdText(a.probeId)} · ${mdText(a.routeId)} · ${modesText([a.mode])}`
    : "";
  return `#${a.attemptId}${cell}: ${mdText(reason)}`;
}

function defectRow(d: Defect): string {
  const side = d.cells.length - d.ownCells;
  return `| ${d.severity} | ${defectTitle(d)} | ${count(d.cells.length)} | ${count(side)} | ${where(d)} | ${exampleText(d, false)} |`;
}

/**
 * The rows a column's headline shows, in rank order: the first `n`, except that every
 * severity the column has keeps its first row (a column with twenty critical defects still
 * shows its largest major and minor one); the rest are in appendix A.
 */
export function headlineRows(defects: readonly Defect[], n: number): Defect[] {
  const firstOfLevel = defects.filter(
    (d, i) => defects.findIndex((e) => e.severity === d.severity) === i,
  );
  const reserved = new Set(firstOfLevel.slice(0, n));
  const picked = new Set(reserved);
  for (const d of defects) {
    if (picked.size >= n) break;
    picked.add(d);
  }
  return defects.filter((d) => picked.has(d));
}

/** ` · 12 critical, 30 major, 9 minor` of a column's cited defects. */
function severityCounts(defects: readonly Defect[]): string {
  const counts = new Map<string, number>();
  for (const d of defects) counts.set(d.severity, (counts.get(d.severity) ?? 0) + 1);
  return [...counts].map(([s, k]) => `${k} ${s}`).join(", ");
}

/** How to read the bytes behind an example. */
export const EXAMPLE_NOTE =
  "An example's `#N` is the attempt it was read from: `npx gatecheck export --attempt-id N` writes its exchange (bytes and all) for `gatecheck check`.";

/** Said above the control column's defects: each is a rule to fix, not a gateway's defect. */
export const CONTROL_NOT_CLEAN =
  "**The control column is not clean.** No gateway stands between client and mock here, so each defect below is a rule of the lens blaming a gateway for what the upstream or the rig did: a bug of gatecheck to fix (docs/lens.md, *A fault the upstream sent is not the gateway's*), and the same rule may blame the gateways above for it too.";

const TABLE_HEAD = [
  "| severity | defect | cells | of them side | where | example |",
  "|---|---|---|---|---|---|",
];

export function renderHeadline(heads: readonly ColumnHeadline[]): string[] {
  const lines = [
    "## Headline: distinct silent defects per gateway",
    "",
    "One row per root cause, with every cell it explains (docs/results.md, *The headline*, gives the grouping rules). *Side* cells found it on a probe about something else: the defect is on the subject it names, never on that probe's field. Ranked by severity, then by cells: *critical*, *major* or *minor* from the severity table, by what was lost, how, why and on which target (docs/lens.md, *Severity*; appendix A names each defect's row).",
    "",
    EXAMPLE_NOTE,
    "",
  ];
  for (const head of heads) {
    lines.push(`### ${columnHeading(head)}`, "");
    if (head.control && head.defects.length > 0) lines.push(CONTROL_NOT_CLEAN, "");
    // A rig suspect is not cited here: the rig suspects section lists it with its sign.
    const cited = head.defects.filter((d) => !isRigSuspect(d));
    if (cited.length === 0) continue;
    const shown = headlineRows(cited, HEADLINE_ROWS);
    lines.push(...TABLE_HEAD, ...shown.map(defectRow));
    const rest = cited.filter((d) => !shown.includes(d));
    if (rest.length > 0) {
      const cells = new Set(
        rest.flatMap((d) => d.cells.map((c) => `${c.routeId}|${c.probeId}|${c.mode}`)),
      );
      lines.push(
        "",
        `${rest.length} more defect${rest.length === 1 ? "" : "s"} on ${count(cells.size)} cells: appendix A.`,
      );
    }
    lines.push("");
  }
  return lines;
}

export function renderDefectAppendix(heads: readonly ColumnHeadline[]): string[] {
  const lines = [
    "## A. Every silent defect by root cause",
    "",
    "The headline's rows, the rest, and the rig suspects (marked, with their signs), with the probes whose cells show them; each example names its attempt and cell.",
    "",
  ];
  for (const head of heads) {
    if (head.defects.length === 0) continue;
    lines.push(
      `### ${mdText(head.column)}`,
      "",
      "| severity | defect | cells | of them side | where | probes | example |",
      "|---|---|---|---|---|---|---|",
    );
    for (const d of head.defects) {
      const side = d.cells.length - d.ownCells;
      const suspect = isRigSuspect(d)
        ? ` (rig suspect: ${mdText((d.signs ?? []).map((s) => s.sign).join(", "))})`
        : "";
      lines.push(
        `| ${d.severity} (${mdText(d.severityRule)}) | ${defectTitle(d)}${suspect} | ${count(d.cells.length)} | ${count(side)} | ${mdText(someOf(d.routes, 3))} · ${modesText(d.modes)} | ${mdText(someOf(d.probes, 6))} | ${exampleText(d, true)} |`,
      );
    }
    lines.push("");
  }
  return lines;
}
