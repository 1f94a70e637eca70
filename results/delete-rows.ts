/**
 * Taking rows out of a results database: cells a sweep will run again (`--resume` of a cell
 * whose phases did not all run) and whole runs (`gatecheck prune`). An attempt's bytes may be
 * shared by several runs (a `rescore` stores judgements against the bytes it re-judged), so
 * bytes and verdict lists go only when nothing refers to them any more.
 */
import type { CellKey } from "./records.ts";
import type { Db } from "./schema.ts";

/** The tables whose rows belong to one run (each refers to `runs`), deleted before the run. */
export const PER_RUN_TABLES = ["judgements", "cells", "gateway_runs", "loops"] as const;

const KEY_MATCH = `run_id = ? AND "column" = ? AND route_id = ? AND probe_id = ? AND mode = ?`;

/** Exchanges and verdict lists no judgement refers to. */
function deleteUnreferenced(db: Db): { exchanges: number; verdictLists: number } {
  const exchanges = db
    .prepare("DELETE FROM exchanges WHERE id NOT IN (SELECT exchange_id FROM judgements)")
    .run().changes;
  const verdictLists = db
    .prepare("DELETE FROM verdict_lists WHERE id NOT IN (SELECT verdicts_id FROM judgements)")
    .run().changes;
  return { exchanges, verdictLists };
}

/** A run's cells and their attempts, in one transaction. */
export function deleteCells(db: Db, runId: string, keys: readonly CellKey[]): void {
  if (keys.length === 0) return;
  const judgements = db.prepare(`DELETE FROM judgements WHERE ${KEY_MATCH}`);
  const cells = db.prepare(`DELETE FROM cells WHERE ${KEY_MATCH}`);
  db.transaction(() => {
    for (const k of keys) {
      const args = [runId, k.column, k.routeId, k.probeId, k.mode];
      judgements.run(...args);
      cells.run(...args);
    }
    deleteUnreferenced(db);
  })();
}

export interface DeletedRuns {
  runs: number;
  cells: number;
  attempts: number;
  exchanges: number;
}

/** Whole runs: their cells, attempts, gateway rows, agent loops, and bytes no other run refers to. */
export function deleteRuns(db: Db, runIds: readonly string[]): DeletedRuns {
  const totals: DeletedRuns = { runs: 0, cells: 0, attempts: 0, exchanges: 0 };
  if (runIds.length === 0) return totals;
  const byRun = PER_RUN_TABLES.map((table) => ({
    table,
    statement: db.prepare(`DELETE FROM ${table} WHERE run_id = ?`),
  }));
  const runs = db.prepare("DELETE FROM runs WHERE id = ?");
  db.transaction(() => {
    for (const id of runIds) {
      for (const { table, statement } of byRun) {
        const { changes } = statement.run(id);
        if (table === "judgements") totals.attempts += changes;
        if (table === "cells") totals.cells += changes;
      }
      totals.runs += runs.run(id).changes;
    }
    totals.exchanges = deleteUnreferenced(db).exchanges;
  })();
  return totals;
}
