/**
 * Reading what the HTML report needs from the database: the run view, one attempt per cell
 * (the first whose own verdict matches the cell's, else the first main attempt), each cell's
 * verdicts in earlier runs, and the diff against the run before it.
 */
import type { Verdict } from "../../probes/verdict.ts";
import type { AttemptRecord, AttemptText, CellRecord } from "../records.ts";
import { diffRuns } from "../run-diff.ts";
import { gatewayOfColumn } from "../run-summary.ts";
import { loadRunView, probeOfCell, type RunView } from "../run-view.ts";
import type { ResultsStore } from "../store.ts";
import { cellId, type HistoryPoint, historyKey, type ReportInputs } from "./report-model.ts";

/** How many earlier runs a cell's history strip shows. */
export const HISTORY_RUNS = 12;

export function loadReportInputs(store: ResultsStore, runId?: string): ReportInputs {
  const view = loadRunView(store, runId);
  const runs = store.listRuns();
  const earlier = runs.filter(
    (r) =>
      r.id !== view.run.id &&
      (r.startedAt < view.run.startedAt ||
        (r.startedAt === view.run.startedAt && r.id < view.run.id)),
  );
  const previous = earlier[0];
  return {
    view,
    attempts: shownAttempts(store, view),
    history: histories(store, earlier.slice(0, HISTORY_RUNS).reverse()),
    ...(previous ? { diff: diffRuns(loadRunView(store, previous.id), view) } : {}),
    runs,
  };
}

function shownAttempts(store: ResultsStore, view: RunView): Map<string, AttemptRecord> {
  const cells = new Map<string, CellRecord>(view.cells.map((c) => [cellId(c), c]));
  const chosen = new Map<string, AttemptRecord>();
  const settled = new Set<string>();
  for (const text of store.iterateAttemptTexts(view.run.id)) {
    if (text.phase === "control") continue;
    const id = cellId(text);
    const cell = cells.get(id);
    if (!cell || settled.has(id)) continue;
    const verdicts = parseJson(text.verdicts) as Verdict[] | undefined;
    const field = probeOfCell(view, cell).field;
    const own = verdicts?.find((v) => v.field === field)?.verdict;
    // Wire bytes are parsed only for the attempts kept, not for every repeat.
    if (own === cell.verdict) {
      chosen.set(id, parsedAttempt(text, verdicts ?? []));
      settled.add(id);
    } else if (!chosen.has(id)) chosen.set(id, parsedAttempt(text, verdicts ?? []));
  }
  return chosen;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parsedAttempt(text: AttemptText, verdicts: Verdict[]): AttemptRecord {
  return {
    ...text,
    timings: parseJson(text.timings),
    clientRequest: parseJson(text.clientRequest),
    forwarded: parseJson(text.forwarded),
    upstreamReply: parseJson(text.upstreamReply),
    clientResponse: parseJson(text.clientResponse),
    verdicts,
    ...(text.clientSdk === "null" ? {} : { clientSdk: parseJson(text.clientSdk) }),
  };
}

/** `earlier` oldest first; each cell's points come out in that order. */
function histories(
  store: ResultsStore,
  earlier: readonly { id: string; startedAt: string }[],
): Map<string, HistoryPoint[]> {
  const out = new Map<string, HistoryPoint[]>();
  for (const run of earlier) {
    const gatewayOf = new Map(store.gatewayRuns(run.id).map((g) => [g.column, g.gateway]));
    for (const cell of store.cells(run.id)) {
      const key = historyKey(gatewayOf.get(cell.column) ?? gatewayOfColumn(cell.column), cell);
      const points = out.get(key) ?? [];
      points.push({ runId: run.id, startedAt: run.startedAt, verdict: cell.verdict });
      out.set(key, points);
    }
  }
  return out;
}
