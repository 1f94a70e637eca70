/**
 * Cells with hand-written attempts, for tests that need what the fixture run does not have:
 * verdict lists with side verdicts, client statuses, forwarded replies, SDK views. One
 * gateway column, one route; every probe is an openai-chat probe.
 */
import { textBytes } from "../../dialects/wire/bytes.ts";
import type { WireExchange } from "../../dialects/wire/exchange.ts";
import type { WireRequest } from "../../dialects/wire/messages.ts";
import { subjectOf } from "../../probes/subject.ts";
import type { Verdict, VerdictKind } from "../../probes/verdict.ts";
import type { AttemptRecord, CellRecord, CellWrite, ProbeRecord } from "../records.ts";
import type { ResultsStore } from "../store.ts";

export const UNIT_COLUMN = "gw@1";
export const UNIT_ROUTE = "openai-chat->anthropic-messages";

export function unitProbe(probeId: string, field: string, axis = "request"): ProbeRecord {
  return {
    probeId,
    definitionHash: `h-${probeId}`,
    clientDialect: "openai-chat",
    axis,
    field,
    subject: subjectOf("openai-chat", field),
    severity: "high",
    definition: { id: probeId },
  };
}

/** A verdict on an openai-chat field. */
export function verdictOn(
  field: string,
  verdict: VerdictKind,
  extra: Partial<Verdict> = {},
): Verdict {
  return {
    subject: subjectOf("openai-chat", field),
    field,
    verdict,
    reason: `${field}: ${verdict}`,
    direction: "request",
    ...extra,
  };
}

/** What one attempt's exchange held, beyond its verdicts. */
export interface AttemptSides {
  verdicts: Verdict[];
  clientStatus?: number;
  /** Statuses the upstream answered the forwards with (one forward each). */
  upstreamStatuses?: number[];
  clientSdk?: unknown;
}

const REQUEST: WireRequest = {
  method: "POST",
  path: "/v1/chat/completions",
  headers: [],
  body: textBytes("{}"),
};

/** The stored exchange of one attempt: a forward per upstream status, the client's status. */
function exchangeOf(side: AttemptSides, mode: "stream" | "non-stream"): WireExchange {
  const statuses = side.upstreamStatuses ?? [];
  return {
    route: { client: "openai-chat", backend: "anthropic-messages" },
    mode,
    clientRequest: REQUEST,
    forwarded: statuses.map(() => ({ ...REQUEST, path: "/v1/messages" })),
    clientResponse: { status: side.clientStatus ?? 200, headers: [], body: textBytes("") },
    timing: { forwarded: statuses.map((status, i) => ({ atMs: i, status })) },
  };
}

/** A cell of `probe` whose attempts are `sides` (the first the main one). */
export function cellUnit(
  runId: string,
  probe: ProbeRecord,
  own: VerdictKind,
  sides: AttemptSides[],
  mode: "stream" | "non-stream" = "stream",
): CellWrite {
  const key = { column: UNIT_COLUMN, routeId: UNIT_ROUTE, probeId: probe.probeId, mode };
  const cell: CellRecord = {
    ...key,
    runId,
    clientDialect: "openai-chat",
    backendDialect: "anthropic-messages",
    definitionHash: probe.definitionHash,
    subject: probe.subject,
    verdict: own,
    reason: `${probe.field}: ${own}`,
    runs: sides.length,
    counts: { [own]: sides.length },
    determinism: sides.length,
    stable: true,
  };
  const attempts: AttemptRecord[] = sides.map((side, i) => ({
    ...key,
    runId,
    attemptNo: i === 0 ? 1 : i,
    phase: i === 0 ? "main" : "repeat",
    status: "ok",
    timings: {},
    exchange: exchangeOf(side, mode),
    verdicts: side.verdicts,
    ...(side.clientSdk === undefined ? {} : { clientSdk: side.clientSdk }),
  }));
  return { cell, attempts };
}

/** A done run of one column holding these cells. */
export function writeUnitRun(
  store: ResultsStore,
  runId: string,
  probes: ProbeRecord[],
  units: CellWrite[],
): void {
  store.beginRun({
    id: runId,
    startedAt: "2026-12-02T02:10:00.000Z",
    gatecheckVersion: "0",
    args: {},
  });
  store.putGatewayRun({ runId, gateway: "gw", version: "1", column: UNIT_COLUMN, status: "ok" });
  store.putProbes(probes);
  const writer = store.cellWriter();
  for (const unit of units) writer.add(unit);
  writer.close();
  store.finishRun(runId, "done");
}
