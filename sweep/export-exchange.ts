/**
 * `gatecheck export`: one stored attempt written out as an exchange file. A stored attempt is
 * an exchange already (the shape `check` reads), so the file is the stored exchange with a
 * note saying where it came from.
 */
import type { WireExchange } from "../dialects/wire/exchange.ts";
import { ResultsError } from "../results/results-error.ts";
import { openStoreReadonly } from "../results/store.ts";

export interface ExportSelection {
  run?: string;
  column: string;
  route: string;
  probe: string;
  mode: "stream" | "non-stream";
  phase: string;
  attempt: number;
}

/** Reads the selected attempt from the database and returns the exchange file's object. */
export function exportExchange(dbPath: string, sel: ExportSelection): WireExchange {
  const store = openStoreReadonly(dbPath);
  try {
    const runId = sel.run ?? store.latestRun()?.id;
    if (!runId) throw new ResultsError("not-found", `${dbPath}: no run stored`);
    const key = { column: sel.column, routeId: sel.route, probeId: sel.probe, mode: sel.mode };
    const cell = store
      .cells(runId)
      .find(
        (c) =>
          c.column === key.column &&
          c.routeId === key.routeId &&
          c.probeId === key.probeId &&
          c.mode === key.mode,
      );
    if (!cell) {
      throw new ResultsError(
        "not-found",
        `${dbPath}: run ${runId} has no cell ${JSON.stringify(key)}; list cells with gatecheck query "SELECT * FROM cells WHERE run_id = '${runId}'"`,
      );
    }
    const attempt = store
      .attemptsOfCell(runId, key)
      .find((a) => a.phase === sel.phase && a.attemptNo === sel.attempt);
    if (!attempt) {
      throw new ResultsError(
        "not-found",
        `${dbPath}: cell ${JSON.stringify(key)} of run ${runId} has no ${sel.phase} attempt ${sel.attempt}`,
      );
    }
    const note =
      `Recorded ${sel.column} ${sel.route} ${sel.mode}, probe ${sel.probe}, run ${runId}` +
      ` (${sel.phase} attempt ${sel.attempt}) against the gatecheck mock; credentials redacted by the recorder.`;
    const { note: _stored, ...exchange } = attempt.exchange;
    return { note, ...exchange };
  } finally {
    store.close();
  }
}
