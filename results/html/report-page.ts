/**
 * The report as one self-contained HTML file: inline CSS and JS, the cells as an inert JSON
 * block, and each cell's wire bytes as one gzip+base64 block (a tenth of the size; the page
 * unpacks it with the browser's DecompressionStream); no network. The matrix is rendered on the server side so it reads (and counts)
 * without JavaScript; the script adds filters, search and the detail panel.
 */
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { VERDICT_CLASS, VERDICTS } from "../../probes/verdict.ts";
import { formatRate } from "../run-summary.ts";
import { routeTarget } from "../run-view.ts";
import { CONTROL_MARK, VERDICT_MEANING, VERDICT_TOKEN } from "../verdict-tokens.ts";
import { renderDiffSection } from "./diff-section.ts";
import { esc, scriptJson } from "./html-escape.ts";
import { markdownToHtml } from "./markdown-html.ts";
import type { CellData, ClientTable, ReportModel } from "./report-model.ts";
import { verdictClass, verdictCss } from "./verdict-palette.ts";

const asset = (name: string): string =>
  readFileSync(new URL(`./assets/${name}`, import.meta.url), "utf8");

/** Marks a cell whose verdict differs from the same cell in the previous run that had it. */
export const CHANGED_MARK = "Δ";

/** The verdict filter's value for every cell with a silent defect, its own or a side finding. */
export const SILENT_FILTER = "silent";

/** Marks a cell as the positive control of a known upstream issue. */
export const KNOWN_ISSUE_MARK = "⚑";

export interface RenderOptions {
  /** Served by `gatecheck serve`: link other runs (`/runs/:id`) and diffs (`/diff/:a/:b`). A file on disk has no such pages. */
  serverLinks?: boolean;
}

export function renderHtmlReport(model: ReportModel, options: RenderOptions = {}): string {
  const { run } = model;
  const data = {
    exportBase: model.exportBase,
    cells: model.cells.map(({ detail: _, ...cell }) => cell),
  };
  const details = gzipSync(JSON.stringify(model.cells.map((c) => c.detail ?? null))).toString(
    "base64",
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>gatecheck run ${esc(run.id)}</title>
<style>${asset("report.css")}
${verdictCss()}</style>
</head><body>
<header><h1>gatecheck matrix <small>run ${esc(run.id)}</small></h1>
<p class="meta">${esc(runMeta(model))}</p></header>
<main>
${sectionsHtml(model, (s) => s.id === "scope" || s.id === "headline" || s.id === "rig-suspects")}
${ratesSection(model)}
${sectionsHtml(model, (s) => s.id === "grid", true)}
${legendSection()}
${filterSection(model)}
<section id="matrix">${model.tables.map((t) => tableHtml(t, model.cells)).join("\n")}</section>
${sectionsHtml(model, (s) => s.folded)}
${model.diff ? renderDiffSection(model.diff) : `<section id="diff"><h2>Changes</h2><p>No earlier run in this database to compare with.</p></section>`}
${runsSection(model, options.serverLinks ?? false)}
</main>
<aside id="detail" hidden aria-live="polite"></aside>
<script type="application/json" id="gc-data">${scriptJson(data)}</script>
<script type="text/plain" id="gc-details" data-encoding="gzip+base64">${details}</script>
<script>${asset("report.js")}</script>
</body></html>
`;
}

/** The Markdown report's sections (report-sections.ts), open or folded. */
function sectionsHtml(
  model: ReportModel,
  which: (s: ReportModel["sections"][number]) => boolean,
  fold = false,
): string {
  return model.sections
    .filter(which)
    .map((s) => {
      const body = markdownToHtml(s.lines);
      return s.folded || fold
        ? `<section id="s-${esc(s.id)}" class="md-section"><details><summary>${esc(s.title)}</summary>${body}</details></section>`
        : `<section id="s-${esc(s.id)}" class="md-section">${body}</section>`;
    })
    .join("\n");
}

function runMeta(model: ReportModel): string {
  const { run } = model;
  return [
    `status ${run.status}`,
    `started ${run.startedAt}`,
    run.finishedAt ? `finished ${run.finishedAt}` : "not finished",
    `gatecheck ${run.gatecheckVersion}${run.gitSha ? ` (${run.gitSha.slice(0, 12)})` : ""}`,
    ...(run.shard ? [`shard ${run.shard}`] : []),
    `${model.cells.length} cells`,
  ].join(" · ");
}

function ratesSection(model: ReportModel): string {
  const rows = model.rates.map((col) => {
    const measured = col.status === "ok" && col.preservationRate !== null;
    const pct = measured ? Math.round((col.preservationRate ?? 0) * 1000) / 10 : 0;
    const bar = measured
      ? `<span class="bar"><span class="fill" style="width:${pct}%"></span></span>`
      : `<span class="bar absent" title="not measured"></span>`;
    const status =
      col.status === "ok"
        ? ""
        : ` <strong class="absent-label">${esc(col.status)}${col.reason ? `: ${esc(col.reason)}` : ""}</strong>`;
    return `<tr class="rate ${col.status === "ok" ? "" : "not-ok"}" data-column="${esc(col.column)}"><th>${esc(col.column)}${status}</th><td>${bar}</td><td class="num">${esc(formatRate(col))}</td><td class="num">${col.silent} silent · ${col.loud} rejected · ${col.counts.error} error · ${col.counts["not-run"]} not-run</td></tr>`;
  });
  return `<section id="rates"><h2>Preservation per gateway</h2>
<p class="note">clean / judged; <code>error</code> and <code>not-run</code> never count as clean, and a gateway that did not run has no rate at all.</p>
<table class="rates">${rows.join("\n")}</table></section>`;
}

function legendSection(): string {
  const items = VERDICTS.map(
    (v) =>
      `<li><span class="chip ${verdictClass(v)}">${esc(VERDICT_TOKEN[v])}</span> ${esc(v)}: ${esc(VERDICT_MEANING[v])}</li>`,
  );
  return `<details id="legend"><summary>Legend</summary><ul>${items.join("")}
<li><code>k/N</code>: k of the N runs of the cell gave this verdict.</li>
<li><code>${CONTROL_MARK.clean}</code> control leg clean (the native route carries it: the translation loses it); <code>${CONTROL_MARK.lost}</code> lost on the native route too; <code>${CONTROL_MARK.undecided}</code> control not judged.</li>
<li><code>+n</code>: n side findings on the cell, silent defects on subjects its probe did not ask about (listed in the detail panel).</li>
<li><code>${KNOWN_ISSUE_MARK}</code> positive control of a known upstream issue. <code>ns</code>/<code>s</code>: non-stream / stream. <code>·</code>: no such cell. <code>${CHANGED_MARK}</code>: verdict changed since the previous run of this cell.</li>
</ul></details>`;
}

function options(values: Iterable<string>): string {
  return [...new Set(values)]
    .sort()
    .map((v) => `<option value="${esc(v)}">${esc(v)}</option>`)
    .join("");
}

function filterSection(model: ReportModel): string {
  const select = (id: string, label: string, values: Iterable<string>) =>
    `<label>${label} <select id="${id}"><option value="">all</option>${options(values)}</select></label>`;
  return `<section id="filters">
${select(
  "f-client",
  "client dialect",
  model.cells.map((c) => c.client),
)}
${select(
  "f-backend",
  "backend dialect",
  model.cells.map((c) => c.backend),
)}
${select(
  "f-axis",
  "axis",
  model.cells.map((c) => c.axis),
)}
${select(
  "f-mode",
  "mode",
  model.cells.map((c) => c.mode),
)}
<label>verdict <select id="f-verdict"><option value="">all</option><option value="${SILENT_FILTER}">all silent defects (own or side)</option>${options(model.cells.map((c) => c.verdict))}</select></label>
<label>field <input id="f-search" type="search" placeholder="search field or probe id"></label>
<span id="f-count"></span>
</section>`;
}

function tableHtml(table: ClientTable, cells: CellData[]): string {
  const head = table.columns
    .map((c) => {
      const absent = c.status === "ok" ? "" : ` absent`;
      const title =
        c.status === "ok"
          ? `${c.column} via ${c.routeId}`
          : `${c.column}: ${c.status}${c.reason ? ` (${c.reason})` : ""}`;
      return `<th class="col${absent}" data-backend="${esc(c.backend)}" title="${esc(title)}"><div>${esc(c.column)}</div><div class="route">→ ${esc(routeTarget(c.routeId))}</div>${c.status === "ok" ? "" : `<div class="absent-label">${esc(c.status)}</div>`}</th>`;
    })
    .join("");
  const body: string[] = [];
  let axis: string | undefined;
  table.rows.forEach((row, r) => {
    if (row.axis !== axis) {
      axis = row.axis;
      body.push(
        `<tr class="axis-head" data-axis="${esc(axis)}"><th colspan="${table.columns.length + 1}">axis: ${esc(axis)}</th></tr>`,
      );
    }
    const tds = table.columns.map((col, c) => {
      const ids = table.grid[r]?.[c] ?? [];
      const absent = col.status === "ok" ? "" : " absent";
      if (ids.length === 0)
        return `<td class="none${absent}" data-backend="${esc(col.backend)}">·</td>`;
      return `<td class="${absent.trim()}" data-backend="${esc(col.backend)}">${ids.map((id) => chip(cells[id])).join("")}</td>`;
    });
    body.push(
      `<tr class="row" data-axis="${esc(row.axis)}" data-field="${esc(row.field)}" data-probe="${esc(row.probeId)}"><th class="field"><code>${esc(row.field)}</code> <span class="probe">${esc(row.probeId)}</span></th>${tds.join("")}</tr>`,
    );
  });
  return `<table class="matrix" data-client="${esc(table.client)}"><caption>client dialect: ${esc(table.client)}</caption>
<thead><tr><th>field (probe)</th>${head}</tr></thead><tbody>${body.join("\n")}</tbody></table>`;
}

function chip(cell: CellData | undefined): string {
  if (!cell) return "";
  const parts = [cell.mode === "stream" ? "s" : "ns", cell.token];
  if (cell.n > 1) parts.push(`${cell.k}/${cell.n}`);
  if (cell.controlMark) parts.push(cell.controlMark);
  if (cell.knownIssue) parts.push(KNOWN_ISSUE_MARK);
  const previous = cell.history.at(-1);
  if (previous && previous.verdict !== cell.verdict) parts.push(CHANGED_MARK);
  if (cell.side.length > 0) parts.push(`+${cell.side.length}`);
  const silent = VERDICT_CLASS[cell.verdict] === "silent" ? " silent" : "";
  const side = cell.side.length > 0 ? " has-side" : "";
  const sideAttr = cell.side.length > 0 ? ` data-side="${cell.side.length}"` : "";
  const title = [
    `${cell.verdict}: ${cell.reason}`,
    ...cell.side.map((f) => `+ ${f.verdict}: ${f.reason}`),
  ];
  return `<button type="button" class="chip ${verdictClass(cell.verdict)}${silent}${side}" data-cell="${cell.id}" data-mode="${esc(cell.mode)}" data-verdict="${esc(cell.verdict)}"${sideAttr} title="${esc(title.join("\n"))}">${esc(parts.join(" "))}</button>`;
}

function runsSection(model: ReportModel, links: boolean): string {
  const current = model.run.id;
  const items = model.runs.map((r) => {
    const id = encodeURIComponent(r.id);
    const name =
      links && r.id !== current
        ? `<a href="/runs/${id}"><code>${esc(r.id)}</code></a>`
        : `<code>${esc(r.id)}</code>`;
    const diff =
      links && r.id !== current
        ? ` · <a href="/diff/${id}/${encodeURIComponent(current)}">diff → this run</a>`
        : "";
    return `<li${r.id === current ? ' class="current"' : ""}>${name} ${esc(r.status)} · ${esc(r.startedAt)}${diff}</li>`;
  });
  return `<section id="runs"><h2>Runs in this database</h2><ul>${items.join("")}</ul></section>`;
}
