import type { Exchange, ExchangeInput, WireReply } from "../probes/exchange.ts";
import type { AttemptRecord, CellRecord } from "../results/records.ts";
import { ResultsError } from "../results/results-error.ts";
import { openStoreReadonly } from "../results/store.ts";
import {
  exchangeFromWire,
  type ForwardedRecord,
  type StoredClientRequest,
  type StoredResponse,
} from "./exchange-from-wire.ts";
import { storedAttemptRoute } from "./stored-route.ts";

export interface ExportSelection {
  run?: string;
  column: string;
  route: string;
  probe: string;
  mode: "stream" | "non-stream";
  phase: string;
  attempt: number;
}

function replyInput(r: WireReply): NonNullable<ExchangeInput["upstreamReply"]> {
  return { status: r.status, headers: r.headers, body: r.body };
}

/** The file form of an exchange: client body as JSON, forwarded bodies as the raw bytes sent. */
export function exchangeInputOf(exchange: Exchange, note: string): ExchangeInput {
  const out: ExchangeInput = {
    note,
    route: exchange.route,
    mode: exchange.mode,
    clientRequest: {
      path: exchange.clientRequest.path,
      headers: exchange.clientRequest.headers,
      body: exchange.clientRequest.body as Record<string, unknown>,
    },
    forwarded: exchange.forwarded.map((f) => ({
      method: f.method,
      path: f.path,
      headers: f.headers,
      body: f.rawBody,
    })),
  };
  if (exchange.upstreamReply) out.upstreamReply = replyInput(exchange.upstreamReply);
  if (exchange.clientResponse) out.clientResponse = replyInput(exchange.clientResponse);
  if (exchange.timing) out.timing = exchange.timing;
  return out;
}

/** The exchange of one stored attempt, in the dialects it was judged with (as `rescore`). */
export function exchangeOfAttempt(cell: CellRecord, attempt: AttemptRecord): Exchange {
  const clientRequest = attempt.clientRequest as StoredClientRequest;
  const { client, backend } = storedAttemptRoute(
    { phase: attempt.phase, path: clientRequest.path },
    { client: cell.clientDialect, backend: cell.backendDialect, field: "" },
  );
  const timings = attempt.timings as { totalMs?: number } | null;
  return exchangeFromWire({
    client,
    backend,
    mode: cell.mode,
    clientRequest,
    forwarded: (attempt.forwarded ?? []) as ForwardedRecord[],
    clientResponse: attempt.clientResponse as StoredResponse,
    secrets: [],
    ...(typeof timings?.totalMs === "number" ? { timings: { totalMs: timings.totalMs } } : {}),
  });
}

/** Reads the selected attempt from the database and returns the exchange file's object. */
export function exportExchange(dbPath: string, sel: ExportSelection): ExchangeInput {
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
    return exchangeInputOf(exchangeOfAttempt(cell, attempt), note);
  } finally {
    store.close();
  }
}
