/**
 * The Markdown matrix of one run, in the order a reader needs it: the scope (what was and
 * was not measured, the positive controls with their denominator), the headline (per
 * gateway, the distinct silent defects by root cause), preservation per gateway, the grid
 * (every route by axis), then the appendix: every defect, the field-by-field matrix (every
 * route its own column), the controls, the cells not measured, failure behaviour and what
 * the official SDKs made of the replies.
 */

import { CLIENT_DIALECTS } from "../dialects/dialect.ts";
import { loopEvidenceRun } from "../loops/evidence-file.ts";
import { AXES } from "../probes/corpus/probe.ts";
import { VERDICT_CLASS, VERDICTS, type VerdictKind } from "../probes/verdict.ts";
import { renderClientSdkSection } from "./client-sdk-section.ts";
import { headlineOf } from "./defects.ts";
import { renderFailureSection } from "./failure-section.ts";
import { gridOf, renderGrid } from "./grid-section.ts";
import { renderDefectAppendix, renderHeadline } from "./headline-section.ts";
import { renderLoopBreaksAppendix, renderLoopsSection, summarizeLoops } from "./loops-section.ts";
import { mdCode, mdText } from "./markdown-text.ts";
import type { CellRecord } from "./records.ts";
import { factsOfView, type ReportFacts } from "./report-facts.ts";
import { auditHeadline } from "./rig-suspects.ts";
import { renderRigSuspects } from "./rig-suspects-section.ts";
import { formatRate, summarizeRun } from "./run-summary.ts";
import { probeOfCell, type RunView, routeTarget } from "./run-view.ts";
import { scopeOf } from "./scope.ts";
import { renderControlAppendix, renderNotMeasuredAppendix, renderScope } from "./scope-section.ts";
import { CONTROL_MARK, VERDICT_MEANING, VERDICT_TOKEN } from "./verdict-tokens.ts";

/** DESIGN.md's axes in its order (the corpus's AXES); unknown axes follow alphabetically. */
const AXIS_ORDER: readonly string[] = AXES;

/** The heading that starts the appendix: everything above it is the matrix proper. */
export const APPENDIX_HEADING = "# Appendix";

/** One section of the report, in the order it is read; `appendix` ones follow APPENDIX_HEADING. */
export interface MarkdownSection {
  id: string;
  lines: string[];
  appendix: boolean;
}

export interface SectionOptions {
  /** Failure behaviour's per-cell rows: MATRIX.md lists the cells that are not clean. */
  failureRows?: "all" | "not-clean";
}

/** Every section of the report, rendered from the facts (the HTML page shows them too). */
export function markdownSections(
  facts: ReportFacts,
  options: SectionOptions = {},
): MarkdownSection[] {
  const { view } = facts;
  const scope = scopeOf(view);
  // The audit runs on every rendering, so `report` and `rescore` see what the sweep saw.
  const heads = auditHeadline(headlineOf(facts), view.cells, facts.exchanges ?? new Map());
  const loops = summarizeLoops(loopEvidenceRun(view.run), view.loops ?? []);
  const section = (id: string, lines: string[], appendix = false) => ({ id, lines, appendix });
  return [
    section("scope", renderScope(scope)),
    section("headline", renderHeadline(heads)),
    section("rig-suspects", renderRigSuspects(heads)),
    section("preservation", preservationSection(view)),
    section("grid", renderGrid(gridOf(facts))),
    section("loops", renderLoopsSection(loops)),
    section("defects", renderDefectAppendix(heads), true),
    section("fields", [...legendSection(), ...matrixSection(view)], true),
    section("controls", renderControlAppendix(scope.controls), true),
    section("not-measured", renderNotMeasuredAppendix(scope), true),
    section(
      "failure",
      renderFailureSection(view, facts.failureFigures, {
        heading: "E. Failure behaviour",
        rows: options.failureRows ?? "not-clean",
      }),
      true,
    ),
    section("sdk", renderClientSdkSection(facts.clientSdk), true),
    section("loop-breaks", renderLoopBreaksAppendix(loops), true),
  ];
}

/** The matrix of a run; a bare view renders without the facts read from attempts. */
export function renderMarkdownReport(input: ReportFacts | RunView): string {
  const facts = "view" in input ? input : factsOfView(input);
  const { view } = facts;
  const out: string[] = [];
  const { run } = view;
  out.push(`# gatecheck matrix: run ${mdText(run.id)}`, "");
  const meta = [
    `status **${mdText(run.status)}**`,
    `started ${mdText(run.startedAt)}`,
    run.finishedAt ? `finished ${mdText(run.finishedAt)}` : "not finished",
    `gatecheck ${mdText(run.gatecheckVersion)}${run.gitSha ? ` (${mdText(run.gitSha)})` : ""}`,
    ...(run.shard ? [`shard ${mdText(run.shard)}`] : []),
    `${view.cells.length} cells`,
  ];
  out.push(meta.join(" · "), "");
  const sections = markdownSections(facts);
  for (const s of sections.filter((x) => !x.appendix)) out.push(...s.lines);
  out.push(APPENDIX_HEADING, "");
  for (const s of sections.filter((x) => x.appendix)) out.push(...s.lines);
  return `${out.join("\n").trimEnd()}\n`;
}

function preservationSection(view: RunView): string[] {
  const summary = summarizeRun(view.run, view.gatewayRuns, view.cells);
  const lines = [
    "## Preservation per gateway",
    "",
    "Preservation = clean / judged. Clean counts `no-equivalent` (shown apart); judged leaves out `error` and `not-run`, which are counted apart and never as clean.",
    "",
    "| gateway | status | preservation (clean/judged) | preserved | no-equivalent | silent defects | rejected | error | not-run |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const col of summary.columns) {
    const status =
      col.status === "ok"
        ? "ran"
        : `**${mdText(col.status)}**${col.reason ? `: ${mdText(col.reason)}` : ""}`;
    const c = col.counts;
    lines.push(
      `| ${mdText(col.column)} | ${status} | ${formatRate(col)} | ${c.preserved} | ${c["no-equivalent"]} | ${col.silent} | ${c.rejected} | ${c.error} | ${c["not-run"]} |`,
    );
  }
  return [...lines, ""];
}

function legendSection(): string[] {
  return [
    "## B. Field by field: every route its own column",
    "",
    "One table per axis and client dialect: rows are the probed field, columns are the gateway column and the route's target (`openai-chat:ollama` is its own column beside `openai-chat`).",
    "",
    "",
    ...VERDICTS.map((v) => `- \`${VERDICT_TOKEN[v]}\`: ${v}, ${VERDICT_MEANING[v]}`),
    "- `k/N`: k of the N runs of the cell gave this verdict (shown when N > 1).",
    `- \`${CONTROL_MARK.clean}\` control leg clean: the field survives the gateway's native route, so the translation loses it; \`${CONTROL_MARK.lost}\` lost on the native route too; \`${CONTROL_MARK.undecided}\` control not judged.`,
    "- `[owner/repo#n]`: the known upstream issue this cell is a positive control for.",
    "- `ns …` / `s …`: non-stream and stream differ; one token when they agree.",
    "- `·`: no such cell (route not offered, or not planned for this gateway).",
    "",
  ];
}

export function cellToken(cell: CellRecord): string {
  const token = VERDICT_TOKEN[cell.verdict];
  const parts = [VERDICT_CLASS[cell.verdict] === "silent" ? `**${token}**` : token];
  if (cell.runs > 1) parts.push(`${cell.determinism}/${cell.runs}`);
  if (cell.controlVerdict) parts.push(controlMark(cell.controlVerdict));
  if (cell.knownIssue) parts.push(`[${mdText(cell.knownIssue)}]`);
  return parts.join(" ");
}

function controlMark(verdict: VerdictKind): string {
  const cls = VERDICT_CLASS[verdict];
  if (cls === "clean") return CONTROL_MARK.clean;
  if (cls === "not-a-finding") return CONTROL_MARK.undecided;
  return CONTROL_MARK.lost;
}

function axisRank(axis: string): number {
  const i = AXIS_ORDER.indexOf(axis);
  return i < 0 ? AXIS_ORDER.length : i;
}

function matrixSection(view: RunView): string[] {
  const lines: string[] = [];
  const absent = view.gatewayRuns.filter((g) => g.status !== "ok");
  if (absent.length > 0) {
    const withCells = new Set(view.cells.map((c) => c.column));
    const described = absent.map(
      (g) =>
        `${mdText(g.column)} (${mdText(g.status)}: ${mdText(g.reason ?? "no reason given")}${withCells.has(g.column) ? "; its cells read `not-run`/`error`" : "; no cells"})`,
    );
    lines.push(`Did not run or failed: ${described.join(", ")}.`, "");
  }
  // axis -> client dialect -> cells
  const groups = new Map<string, Map<string, CellRecord[]>>();
  for (const cell of view.cells) {
    const { axis } = probeOfCell(view, cell);
    const byClient = groups.get(axis) ?? new Map<string, CellRecord[]>();
    groups.set(axis, byClient);
    const list = byClient.get(cell.clientDialect) ?? [];
    byClient.set(cell.clientDialect, list);
    list.push(cell);
  }
  const axes = [...groups.keys()].sort((a, b) => axisRank(a) - axisRank(b) || a.localeCompare(b));
  for (const axis of axes) {
    lines.push(`### Axis: ${mdText(axis)}`, "");
    const byClient = groups.get(axis) ?? new Map<string, CellRecord[]>();
    const clients = [...byClient.keys()].sort(
      (a, b) => clientRank(a) - clientRank(b) || a.localeCompare(b),
    );
    for (const client of clients) {
      lines.push(
        `#### Client dialect: ${mdText(client)}`,
        "",
        ...axisTable(view, byClient.get(client) ?? []),
        "",
      );
    }
  }
  return lines;
}

function clientRank(dialect: string): number {
  const i = (CLIENT_DIALECTS as readonly string[]).indexOf(dialect);
  return i < 0 ? CLIENT_DIALECTS.length : i;
}

function axisTable(view: RunView, cells: CellRecord[]): string[] {
  // Every route its own column: two routes to one backend dialect (`openai-chat` and
  // `openai-chat:ollama`) are two columns, never one slot the last cell written wins.
  const columnKey = (c: CellRecord) => `${mdText(c.column)} → ${mdText(routeTarget(c.routeId))}`;
  const rowKey = (c: CellRecord) => `${mdCode(probeOfCell(view, c).field)} (${mdText(c.probeId)})`;
  const columns = [...new Set(cells.map(columnKey))].sort();
  const rows = [...new Set(cells.map(rowKey))].sort();
  const grid = new Map<string, CellRecord[]>();
  for (const cell of cells) {
    const key = `${rowKey(cell)}\u0000${columnKey(cell)}`;
    grid.set(key, [...(grid.get(key) ?? []), cell]);
  }
  const lines = [
    `| field (probe) | ${columns.join(" | ")} |`,
    `|---|${columns.map(() => "---").join("|")}|`,
  ];
  for (const row of rows) {
    const tokens = columns.map((col) => modeToken(grid.get(`${row}\u0000${col}`) ?? []));
    lines.push(`| ${row} | ${tokens.join(" | ")} |`);
  }
  return lines;
}

/** One token when both modes agree, `ns … · s …` when they differ, `·` for no cell. */
function modeToken(cells: CellRecord[]): string {
  if (cells.length === 0) return "·";
  const byMode = new Map(cells.map((c) => [c.mode, cellToken(c)]));
  const tokens = [...new Set(byMode.values())];
  if (tokens.length === 1 && byMode.size === 2) return tokens[0] ?? "·";
  return (["non-stream", "stream"] as const)
    .filter((m) => byMode.has(m))
    .map((m) => `${m === "stream" ? "s" : "ns"} ${byMode.get(m)}`)
    .join(" · ");
}
