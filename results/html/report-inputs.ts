/**
 * Reading what the HTML report needs from the database: the run view, one attempt per cell
 * (the first whose own verdict matches the cell's, else the first main attempt), each cell's
 * verdicts in earlier runs, and the diff against the run before it.
 */
import type { Verdict } from "../../probes/verdict.ts";
import { columnsOf, matchColumns } from "../column-match.ts";
import {
  type AttemptRecord,
  type CellRecord,
  cellKeyString,
  type ExchangeTexts,
  type JudgementRef,
} from "../records.ts";
import { loadReportFacts } from "../report-facts.ts";
import { withRigEvidence } from "../rig-evidence.ts";
import { loadRunDiff } from "../run-diff-io.ts";
import { loadRunView, type RunView } from "../run-view.ts";
import type { ResultsStore } from "../store.ts";
import { storedExchange } from "../stored-exchange.ts";
import { parseVerdictList } from "../verdict-lists.ts";
import { cellId, type HistoryPoint, historyKey, type ReportInputs } from "./report-model.ts";

/** How many earlier runs a cell's history strip shows. */
export const HISTORY_RUNS = 12;

export function loadReportInputs(store: ResultsStore, runId?: string): ReportInputs {
  const view = loadRunView(store, runId);
  const facts = withRigEvidence(store, loadReportFacts(store, view));
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
    facts,
    dbPath: store.path,
    attempts: shownAttempts(store, view),
    history: histories(store, view, earlier.slice(0, HISTORY_RUNS).reverse()),
    ...(previous ? { diff: loadRunDiff(store, previous.id, view) } : {}),
    runs,
  };
}

/**
 * One attempt per cell. Chosen from the judgements alone (keys and a verdict list id, each
 * distinct list parsed once), then only the chosen attempts' bytes are read: the read it
 * replaces copied every attempt's ~7.5 KB out of SQLite, repeats included, and parsed every
 * attempt's verdict list.
 */
function shownAttempts(store: ResultsStore, view: RunView): Map<string, AttemptRecord> {
  const cells = new Map<string, CellRecord>(view.cells.map((c) => [cellId(c), c]));
  const lists = new Map<number, Verdict[]>();
  const listOf = (id: number, routeId: string): Verdict[] => {
    let list = lists.get(id);
    if (list === undefined) {
      list = parseVerdictList(store.verdictListText(id), routeId);
      lists.set(id, list);
    }
    return list;
  };
  const chosen = new Map<string, JudgementRef>();
  const settled = new Set<string>();
  for (const ref of store.judgementRefs(view.run.id)) {
    if (ref.phase === "control") continue;
    const id = cellId(ref);
    const cell = cells.get(id);
    if (!cell || settled.has(id)) continue;
    const own = listOf(ref.verdictsId, ref.routeId).find(
      (v) => v.subject === cell.subject,
    )?.verdict;
    if (own === cell.verdict) {
      chosen.set(id, ref);
      settled.add(id);
    } else if (!chosen.has(id)) chosen.set(id, ref);
  }
  const shown = new Map<string, AttemptRecord>();
  for (const [id, ref] of chosen) {
    const texts = store.exchangeTexts(ref.exchangeId);
    shown.set(id, parsedAttempt(view.run.id, ref, texts, listOf(ref.verdictsId, ref.routeId)));
  }
  return shown;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parsedAttempt(
  runId: string,
  ref: JudgementRef,
  texts: ExchangeTexts,
  verdicts: Verdict[],
): AttemptRecord {
  return {
    runId,
    column: ref.column,
    routeId: ref.routeId,
    probeId: ref.probeId,
    mode: ref.mode,
    phase: ref.phase,
    attemptNo: ref.attemptNo,
    status: texts.status,
    timings: parseJson(texts.timings),
    exchange: storedExchange(
      texts.exchange,
      () => `${ref.phase} attempt ${ref.attemptNo} of ${cellKeyString(ref)} in run ${runId}`,
    ),
    verdicts,
    ...(texts.clientSdk === "null" ? {} : { clientSdk: parseJson(texts.clientSdk) }),
  };
}

/**
 * `earlier` oldest first; each cell's points come out in that order. An earlier run's column
 * counts as one of this run's as `diff` matches them (column-match.ts), so two columns of one
 * gateway never share a history.
 */
function histories(
  store: ResultsStore,
  view: RunView,
  earlier: readonly { id: string; startedAt: string }[],
): Map<string, HistoryPoint[]> {
  const current = columnsOf(
    view.gatewayRuns,
    view.cells.map((c) => c.column),
  );
  const out = new Map<string, HistoryPoint[]>();
  for (const run of earlier) {
    const cells = store.cells(run.id);
    const columns = columnsOf(
      store.gatewayRuns(run.id),
      cells.map((c) => c.column),
    );
    const currentOf = new Map(
      [...matchColumns(columns, current)].map(([now, then]) => [then, now]),
    );
    for (const cell of cells) {
      const column = currentOf.get(cell.column);
      if (column === undefined) continue;
      const key = historyKey(column, cell);
      const points = out.get(key) ?? [];
      points.push({ runId: run.id, startedAt: run.startedAt, verdict: cell.verdict });
      out.set(key, points);
    }
  }
  return out;
}
