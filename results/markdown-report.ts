/**
 * The Markdown matrix of one run: preservation per gateway with its denominator, one table
 * per axis and client dialect (rows = probed field, columns = gateway column and backend),
 * a legend, the positive controls that did and did not reproduce, and the new leads.
 */

import { CLIENT_DIALECTS } from "../dialects/dialect.ts";
import { AXES } from "../probes/corpus/probe.ts";
import { VERDICT_CLASS, VERDICTS, type VerdictKind } from "../probes/verdict.ts";
import { type ClientSdkStats, renderClientSdkSection } from "./client-sdk-section.ts";
import { type FailureFigures, renderFailureSection } from "./failure-section.ts";
import type { CellRecord } from "./records.ts";
import { formatRate, summarizeRun } from "./run-summary.ts";
import { probeOfCell, type RunView, routeTarget } from "./run-view.ts";
import { CONTROL_MARK, knownIssueLink, VERDICT_MEANING, VERDICT_TOKEN } from "./verdict-tokens.ts";

/** DESIGN.md's axes in its order (the corpus's AXES); unknown axes follow alphabetically. */
const AXIS_ORDER: readonly string[] = AXES;

export function renderMarkdownReport(
  view: RunView,
  failureFigures: readonly FailureFigures[] = [],
  clientSdk: readonly ClientSdkStats[] = [],
): string {
  const out: string[] = [];
  const { run } = view;
  out.push(`# gatecheck matrix: run ${run.id}`, "");
  const meta = [
    `status **${run.status}**`,
    `started ${run.startedAt}`,
    run.finishedAt ? `finished ${run.finishedAt}` : "not finished",
    `gatecheck ${run.gatecheckVersion}${run.gitSha ? ` (${run.gitSha})` : ""}`,
    ...(run.shard ? [`shard ${run.shard}`] : []),
    `${view.cells.length} cells`,
  ];
  out.push(meta.join(" · "), "");
  out.push(...preservationSection(view), ...legendSection(), ...matrixSection(view));
  out.push(...positiveControlSection(view.cells, view), ...newLeadSection(view.cells, view));
  out.push(...renderFailureSection(view, failureFigures));
  out.push(...renderClientSdkSection(clientSdk));
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
        : `**${col.status}**${col.reason ? `: ${cellText(col.reason)}` : ""}`;
    const c = col.counts;
    lines.push(
      `| ${col.column} | ${status} | ${formatRate(col)} | ${c.preserved} | ${c["no-equivalent"]} | ${col.silent} | ${c.rejected} | ${c.error} | ${c["not-run"]} |`,
    );
  }
  return [...lines, ""];
}

function legendSection(): string[] {
  return [
    "## Legend",
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
  if (cell.knownIssue) parts.push(`[${cellText(cell.knownIssue)}]`);
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
  const lines: string[] = ["## Matrix", ""];
  const absent = view.gatewayRuns.filter((g) => g.status !== "ok");
  if (absent.length > 0) {
    const withCells = new Set(view.cells.map((c) => c.column));
    const described = absent.map(
      (g) =>
        `${g.column} (${g.status}: ${cellText(g.reason ?? "no reason given")}${withCells.has(g.column) ? "; its cells read `not-run`/`error`" : "; no cells"})`,
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
    lines.push(`### Axis: ${axis}`, "");
    const byClient = groups.get(axis) ?? new Map<string, CellRecord[]>();
    const clients = [...byClient.keys()].sort(
      (a, b) => clientRank(a) - clientRank(b) || a.localeCompare(b),
    );
    for (const client of clients) {
      lines.push(
        `#### Client dialect: ${client}`,
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
  const columnKey = (c: CellRecord) => `${c.column} → ${routeTarget(c.routeId)}`;
  const rowKey = (c: CellRecord) => `\`${probeOfCell(view, c).field}\` (${c.probeId})`;
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

function cellLine(view: RunView, c: CellRecord): string {
  const verdict = VERDICT_TOKEN[c.verdict] + (c.runs > 1 ? ` ${c.determinism}/${c.runs}` : "");
  const control = c.controlVerdict ? `${controlMark(c.controlVerdict)} ${c.controlVerdict}` : "";
  return `| ${c.column} | ${c.routeId} | ${c.mode} | \`${probeOfCell(view, c).field}\` (${c.probeId}) | ${verdict} | ${control} | ${cellText(c.reason)} |`;
}

const CELL_TABLE_HEAD = [
  "| gateway | route | mode | field (probe) | verdict | control | reason |",
  "|---|---|---|---|---|---|---|",
];

function positiveControlSection(cells: CellRecord[], view: RunView): string[] {
  const controls = cells.filter((c) => c.knownIssue);
  const lines = ["## Positive controls (known issues)", ""];
  if (controls.length === 0) return [...lines, "No cell in this run is a positive control.", ""];
  const groups = [
    ["Reproduced", controls.filter((c) => isFinding(c.verdict))],
    ["Did not reproduce", controls.filter((c) => VERDICT_CLASS[c.verdict] === "clean")],
    ["Not measured", controls.filter((c) => VERDICT_CLASS[c.verdict] === "not-a-finding")],
  ] as const;
  for (const [title, list] of groups) {
    lines.push(`### ${title} (${list.length})`, "");
    if (list.length === 0) {
      lines.push("None.", "");
      continue;
    }
    lines.push(`| known issue ${CELL_TABLE_HEAD[0]}`, `|---${CELL_TABLE_HEAD[1]}`);
    for (const c of list)
      lines.push(`| ${knownIssueLink(c.knownIssue ?? "")} ${cellLine(view, c)}`);
    lines.push("");
  }
  return lines;
}

function isFinding(verdict: VerdictKind): boolean {
  const cls = VERDICT_CLASS[verdict];
  return cls === "silent" || cls === "loud";
}

function newLeadSection(cells: CellRecord[], view: RunView): string[] {
  const leads = cells
    .filter((c) => !c.knownIssue && isFinding(c.verdict))
    .sort(
      (a, b) =>
        Number(VERDICT_CLASS[a.verdict] !== "silent") -
          Number(VERDICT_CLASS[b.verdict] !== "silent") || a.column.localeCompare(b.column),
    );
  const lines = [
    "## New leads",
    "",
    "Silent defects and rejections with no known issue: the findings to look at first.",
    "",
  ];
  if (leads.length === 0) return [...lines, "None.", ""];
  return [...lines, ...CELL_TABLE_HEAD, ...leads.map((c) => cellLine(view, c)), ""];
}

/** Text safe inside a Markdown table cell. */
function cellText(text: string): string {
  return text.replaceAll("|", "\\|").replace(/\s*\n\s*/g, " ");
}
