/**
 * The bytes the rig audit reads (rig-suspects.ts): the exchanges of each defect's evidence
 * attempts (a few per defect, Defect.evidence), read once when a report's facts are loaded,
 * so the audit itself stays a pure function of what the report holds.
 */
import type { WireExchange } from "../dialects/wire/exchange.ts";
import { headlineOf } from "./defects.ts";
import type { ReportFacts } from "./report-facts.ts";
import type { ResultsStore } from "./store.ts";
import { storedExchange } from "./stored-exchange.ts";

/** The facts with `exchanges` holding every defect's evidence attempts. */
export function withRigEvidence(store: ResultsStore, facts: ReportFacts): ReportFacts {
  const ids = new Set<number>();
  for (const head of headlineOf(facts)) {
    for (const d of head.defects) for (const e of d.evidence) ids.add(e.attemptId);
  }
  const stmt = store.db
    .prepare(
      `SELECT e.exchange FROM judgements j JOIN exchanges e ON e.id = j.exchange_id
       WHERE j.rowid = ?`,
    )
    .pluck();
  const exchanges = new Map<number, WireExchange>(facts.exchanges ?? []);
  for (const id of ids) {
    if (exchanges.has(id)) continue;
    const text = stmt.get(id) as string | undefined;
    if (text === undefined) continue;
    exchanges.set(id, storedExchange(text, `attempt ${id} of run ${facts.view.run.id}`));
  }
  return { ...facts, exchanges };
}
