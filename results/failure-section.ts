/**
 * The matrix's failure section: per gateway column, how it behaved when the upstream failed,
 * with the figures measured from the stored attempts (how many forwarded requests reached
 * the mock, the gaps between them, how long the client waited, what status it got).
 * `failureFiguresOf` reads them from the store; `renderFailureSection` is pure.
 */

import type { WireExchange } from "../dialects/wire/exchange.ts";
import { VERDICT_CLASS } from "../probes/verdict.ts";
import { mdText } from "./markdown-text.ts";
import type { CellRecord } from "./records.ts";
import { probeOfCell, type RunView } from "./run-view.ts";
import type { ResultsStore } from "./store.ts";

/** What the main attempt of one failure-axis cell measured. */
export interface FailureFigures {
  column: string;
  routeId: string;
  probeId: string;
  mode: string;
  /** Forwarded requests that reached the mock for this attempt's nonce. */
  attempts: number;
  /** Gaps between consecutive arrivals, ms (empty when arrival times were not stored). */
  gapsMs: number[];
  /** The client's whole wait, ms. */
  totalMs?: number;
  /** Status the client got; 0 when no response arrived. */
  clientStatus?: number;
  /** Mock listeners the forwards reached (2 = the gateway moved to the second target). */
  targets?: number;
  /** What the mock answered the first forward. */
  firstStatus?: number;
}

const FAILURE_AXIS = "failure";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Figures from one stored attempt's exchange: how many requests reached the backend, the gaps
 * between their arrivals, the client's wait and status (0: no response), how many targets
 * (distinct `host`s) the requests reached and what the first one answered.
 */
export function figuresOfAttempt(
  cell: Pick<CellRecord, "column" | "routeId" | "probeId" | "mode">,
  stored: { exchange: WireExchange; timings: unknown },
): FailureFigures {
  const { exchange } = stored;
  const forwarded = exchange.forwarded ?? [];
  const arrivals = exchange.timing?.forwarded ?? [];
  const gapsMs =
    arrivals.length === forwarded.length
      ? arrivals.slice(1).map((a, i) => a.atMs - (arrivals[i]?.atMs ?? a.atMs))
      : [];
  const out: FailureFigures = {
    column: cell.column,
    routeId: cell.routeId,
    probeId: cell.probeId,
    mode: cell.mode,
    attempts: forwarded.length,
    gapsMs,
  };
  if (isRecord(stored.timings) && typeof stored.timings.totalMs === "number")
    out.totalMs = stored.timings.totalMs;
  if (exchange.clientResponse) out.clientStatus = exchange.clientResponse.status;
  else if (exchange.clientError !== undefined) out.clientStatus = 0;
  const hosts = forwarded.flatMap((f) => f.headers.filter(([n]) => n === "host").map(([, v]) => v));
  if (hosts.length > 0) out.targets = new Set(hosts).size;
  const firstStatus = arrivals[0]?.status;
  if (firstStatus !== undefined) out.firstStatus = firstStatus;
  return out;
}

/** The main attempt's figures of every failure-axis cell of the run. */
export function failureFiguresOf(store: ResultsStore, view: RunView): FailureFigures[] {
  const out: FailureFigures[] = [];
  for (const cell of view.cells) {
    if (probeOfCell(view, cell).axis !== FAILURE_AXIS) continue;
    const main = store.attemptsOfCell(view.run.id, cell).find((a) => a.phase === "main");
    if (main) out.push(figuresOfAttempt(cell, main));
  }
  return out;
}

const key = (c: { column: string; routeId: string; probeId: string; mode: string }) =>
  `${c.column}|${c.routeId}|${c.probeId}|${c.mode}`;

function ms(value: number | undefined): string {
  return value === undefined ? "—" : `${Math.round(value)} ms`;
}

/** Fields whose figures are the point (the rest are judged on bodies alone). */
const TIMED_FIELDS = new Set(["failure.retries", "failure.deadline"]);

export interface FailureSectionOptions {
  heading?: string;
  /** Per-cell rows for every cell (default), or only for cells that are not clean: the
   * matrix's appendix counts the clean ones in a line instead of a row each. */
  rows?: "all" | "not-clean";
}

export function renderFailureSection(
  view: RunView,
  figures: readonly FailureFigures[] = [],
  options: FailureSectionOptions = {},
): string[] {
  const cells = view.cells.filter((c) => probeOfCell(view, c).axis === FAILURE_AXIS);
  if (cells.length === 0) return [];
  const byKey = new Map(figures.map((f) => [key(f), f]));
  const shown = (c: CellRecord) =>
    options.rows !== "not-clean" || VERDICT_CLASS[c.verdict] !== "clean";
  const lines = [
    `## ${options.heading ?? "Failure behaviour"}`,
    "",
    "What each gateway told its caller when the upstream failed (docs/failure.md). Attempts = forwarded requests that reached the mock for one client request; gaps = time between their arrivals; wait = the client's whole wait.",
    "",
    "| gateway | failure cells | truthful | silent defects | most attempts per request | longest client wait |",
    "|---|---|---|---|---|---|",
  ];
  const columns = [...new Set(cells.map((c) => c.column))];
  for (const column of columns) {
    const all = cells.filter((c) => c.column === column);
    // Cells that did not run (no fallback on this gateway, budget) are counted apart, so a
    // column's truthful share reads over what ran.
    const mine = all.filter((c) => c.verdict !== "not-run");
    const skipped = all.length - mine.length;
    const count = skipped > 0 ? `${mine.length} (+${skipped} not run)` : `${mine.length}`;
    const clean = mine.filter((c) => VERDICT_CLASS[c.verdict] === "clean").length;
    const silent = mine.filter((c) => VERDICT_CLASS[c.verdict] === "silent").length;
    const measured = mine.flatMap((c) => byKey.get(key(c)) ?? []);
    const most = measured.length > 0 ? String(Math.max(...measured.map((f) => f.attempts))) : "—";
    const waits = measured.flatMap((f) => (f.totalMs === undefined ? [] : [f.totalMs]));
    const longest = waits.length > 0 ? ms(Math.max(...waits)) : "—";
    lines.push(`| ${mdText(column)} | ${count} | ${clean} | ${silent} | ${most} | ${longest} |`);
  }
  const timedAll = cells.filter((c) => TIMED_FIELDS.has(probeOfCell(view, c).field));
  const timed = timedAll.filter(shown);
  const hidden = timedAll.length - timed.length;
  if (hidden > 0) {
    lines.push(
      "",
      `${hidden} clean timed cell${hidden === 1 ? "" : "s"} (retries, deadline) not listed; every row is in the HTML report.`,
    );
  }
  if (timed.length > 0) {
    lines.push(
      "",
      "| gateway | probe | mode | route | attempts | gaps | client wait | client status | verdict |",
      "|---|---|---|---|---|---|---|---|---|",
    );
    for (const c of timed) {
      const f = byKey.get(key(c));
      const gaps = f && f.gapsMs.length > 0 ? f.gapsMs.map((g) => `${g}`).join(", ") : "—";
      const verdict = `${c.verdict}${c.cause ? ` (${c.cause})` : ""}`;
      lines.push(
        `| ${mdText(c.column)} | ${mdText(c.probeId)} | ${c.mode} | ${mdText(c.routeId)} | ${f?.attempts ?? "—"} | ${gaps} | ${ms(f?.totalMs)} | ${f?.clientStatus ?? "—"} | ${mdText(verdict)} |`,
      );
    }
  }
  lines.push(...renderFallback(view, cells, byKey, shown));
  if (figures.length === 0)
    lines.push("", "_Attempt figures were not loaded for this report (cells only)._");
  lines.push("");
  return lines;
}

const FALLBACK_FIELD = "failure.fallback";

/** The status the first target fails with, from the probe id (`*-failure-fallback-503`). */
function fallbackStatus(probeId: string): string {
  return /fallback-(\d{3})$/.exec(probeId)?.[1] ?? "?";
}

/**
 * Per gateway, the statuses on which it moved to the second target (measured: the forwards
 * reached both listeners), then one row per fallback cell.
 */
function renderFallback(
  view: RunView,
  cells: readonly CellRecord[],
  byKey: ReadonlyMap<string, FailureFigures>,
  shown: (c: CellRecord) => boolean,
): string[] {
  const mine = cells.filter((c) => probeOfCell(view, c).field === FALLBACK_FIELD);
  if (mine.length === 0) return [];
  const lines = [
    "",
    "### Fallback",
    "",
    "Two targets; the first fails with the status shown, the second answers. Moved = the forwards reached the second target's listener.",
    "",
    "| gateway | moved on | stayed on | fallback findings | not run |",
    "|---|---|---|---|---|",
  ];
  const statuses = (list: readonly CellRecord[]) =>
    [...new Set(list.map((c) => fallbackStatus(c.probeId)))].sort().join(", ") || "—";
  for (const column of [...new Set(mine.map((c) => c.column))]) {
    const ran = mine.filter((c) => c.column === column && c.verdict !== "not-run");
    const moved = ran.filter((c) => (byKey.get(key(c))?.targets ?? 0) > 1);
    const stayed = ran.filter((c) => byKey.get(key(c))?.targets === 1);
    const findings = ran.filter((c) => VERDICT_CLASS[c.verdict] === "silent").length;
    const notRun = mine.filter((c) => c.column === column && c.verdict === "not-run");
    const why = notRun[0] ? `${notRun.length} (${mdText(notRun[0].reason)})` : "0";
    lines.push(
      `| ${mdText(column)} | ${statuses(moved)} | ${statuses(stayed)} | ${findings} | ${why} |`,
    );
  }
  const ran = mine.filter((c) => c.verdict !== "not-run" && shown(c));
  if (ran.length > 0) {
    lines.push(
      "",
      "| gateway | probe | route | first target | targets reached | client status | verdict |",
      "|---|---|---|---|---|---|---|",
    );
    for (const c of ran) {
      const f = byKey.get(key(c));
      const verdict = `${c.verdict}${c.cause ? ` (${c.cause})` : ""}`;
      lines.push(
        `| ${mdText(c.column)} | ${mdText(c.probeId)} | ${mdText(c.routeId)} | ${f?.firstStatus ?? "—"} | ${f?.targets ?? "—"} | ${f?.clientStatus ?? "—"} | ${mdText(verdict)} |`,
      );
    }
  }
  return lines;
}
