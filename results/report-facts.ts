/**
 * What the report's headline needs beyond the cells and findings of a run view, read once
 * from the stored attempts: per cell, whether its client got the answer the upstream gave
 * (a failed delivery), and per route and mode, how often the carrier of each direction (the
 * request's `messages`, the reply's `text`) was judged and how often it was lost. Plus the
 * sections measured from attempts (failure figures, the SDK view). Pure renderers take this.
 */
import type { Mode } from "../dialects/dialect.ts";
import type { WireExchange } from "../dialects/wire/exchange.ts";
import { type ClientSdkStats, clientSdkStatsOf } from "./client-sdk-section.ts";
import { type FailureFigures, failureFiguresOf } from "./failure-section.ts";
import type { CellKey } from "./records.ts";
import type { RunView } from "./run-view.ts";
import type { ResultsStore } from "./store.ts";

/**
 * A cell whose client got a 5xx, or no response, while every upstream reply was a success (or
 * nothing was forwarded): the answer existed and did not reach the caller. An upstream error
 * relabelled on its way (a 429 that arrives as a 500) is not one: the failure probes judge it.
 */
export interface FailedDelivery extends CellKey {
  /** What the client got: an HTTP status, or 0 when no response arrived. */
  clientStatus: number;
  /** The highest status the upstream answered the gateway's forwards with (none forwarded: absent). */
  upstreamStatus?: number;
}

/** The subjects whose loss means a whole direction of an exchange was not carried. */
export const CARRIERS = { request: "messages", reply: "text" } as const;

export type Direction = keyof typeof CARRIERS;

/** How often one direction's carrier was judged, and lost, on one route in one mode. */
export interface CarrierCount {
  column: string;
  routeId: string;
  mode: Mode;
  direction: Direction;
  /** Main attempts whose verdict list judged the carrier. */
  judged: number;
  /** Of those, the ones where it was silently lost (dropped, mangled, invented). */
  lost: number;
}

export interface ReportFacts {
  view: RunView;
  deliveries: FailedDelivery[];
  carriers: CarrierCount[];
  failureFigures: FailureFigures[];
  clientSdk: ClientSdkStats[];
  /** Stored exchanges by attempt id that the rig audit reads (rig-evidence.ts); absent or
   * partial, the audit judges what it has and the signs that need bytes stay quiet. */
  exchanges?: ReadonlyMap<number, WireExchange>;
}

/** A view alone, for renderers called without a database (the facts read from attempts empty). */
export function factsOfView(view: RunView): ReportFacts {
  return { view, deliveries: [], carriers: [], failureFigures: [], clientSdk: [] };
}

export function loadReportFacts(store: ResultsStore, view: RunView): ReportFacts {
  return {
    view,
    deliveries: failedDeliveries(store, view.run.id),
    carriers: carrierCounts(store, view.run.id),
    failureFigures: failureFiguresOf(store, view),
    clientSdk: clientSdkStatsOf(store, view.run.id),
  };
}

function failedDeliveries(store: ResultsStore, runId: string): FailedDelivery[] {
  const rows = store.db
    .prepare(
      `SELECT j."column", j.route_id, j.probe_id, j.mode,
              coalesce(json_extract(e.exchange, '$.clientResponse.status'), 0) AS client_status,
              (SELECT max(json_extract(f.value, '$.status'))
                 FROM json_each(e.exchange, '$.timing.forwarded') f)
                AS upstream_status
       FROM judgements j JOIN exchanges e ON e.id = j.exchange_id
       WHERE j.run_id = ? AND j.phase = 'main'
         AND coalesce(json_extract(e.exchange, '$.clientResponse.status'), 0) NOT BETWEEN 1 AND 499`,
    )
    .all(runId) as {
    column: string;
    route_id: string;
    probe_id: string;
    mode: Mode;
    client_status: number;
    upstream_status: number | null;
  }[];
  return rows
    .filter((r) => r.upstream_status === null || r.upstream_status < 300)
    .map((r) => ({
      column: r.column,
      routeId: r.route_id,
      probeId: r.probe_id,
      mode: r.mode,
      clientStatus: r.client_status,
      ...(r.upstream_status === null ? {} : { upstreamStatus: r.upstream_status }),
    }));
}

function carrierCounts(store: ResultsStore, runId: string): CarrierCount[] {
  const rows = store.db
    .prepare(
      `SELECT j."column", j.route_id, j.mode, json_extract(e.value, '$.subject') AS subject,
              count(*) AS judged,
              sum(json_extract(e.value, '$.verdict') IN ('dropped', 'mangled', 'invented')) AS lost
       FROM judgements j JOIN verdict_lists v ON v.id = j.verdicts_id, json_each(v.verdicts) e
       WHERE j.run_id = ? AND j.phase = 'main'
         AND json_extract(e.value, '$.subject') IN (?, ?)
       GROUP BY 1, 2, 3, 4`,
    )
    .all(runId, CARRIERS.request, CARRIERS.reply) as {
    column: string;
    route_id: string;
    mode: Mode;
    subject: string;
    judged: number;
    lost: number;
  }[];
  return rows.map((r) => ({
    column: r.column,
    routeId: r.route_id,
    mode: r.mode,
    direction: r.subject === CARRIERS.request ? "request" : "reply",
    judged: r.judged,
    lost: r.lost,
  }));
}
