/**
 * `rescore RUN`: re-judge a run's stored bytes with today's lens, as a new run, starting no
 * gateway. Each attempt is rebuilt into the exchange the live sweep judged (same function,
 * exchangeFromWire) and judged again; cells are folded again from the new verdicts. The new
 * run's args name the run it rescored, so `diff` between the two shows what the lens change
 * moved.
 */
import {
  CLIENT_DIALECTS,
  type ClientDialect,
  type Dialect,
  type Mode,
} from "../dialects/dialect.ts";
import { dialectOfPath } from "../dialects/routes.ts";
import { CANARY_VALUES } from "../probes/corpus/canaries.ts";
import type { Verdict, VerdictKind } from "../probes/verdict.ts";
import { type CellRecord, cellKeyString } from "../results/records.ts";
import {
  attemptCopier,
  copyGatewayRuns,
  iterateAttemptsForRescore,
} from "../results/rescore-io.ts";
import { newRunId, type ResultsStore } from "../results/store.ts";
import { judgeAttempt } from "./attempt.ts";
import { controlField } from "./control-leg.ts";
import { foldVerdicts } from "./determinism.ts";
import {
  exchangeFromWire,
  type ForwardedRecord,
  type StoredClientRequest,
  type StoredResponse,
} from "./exchange-from-wire.ts";

export interface RescoreResult {
  runId: string;
  fromRun: string;
  attempts: number;
  cells: number;
  /** Cells whose verdict changed. */
  changed: number;
  elapsedMs: number;
}

interface CellTally {
  old: CellRecord;
  verdicts: Verdict[];
  control?: VerdictKind;
}

function isClientDialect(d: Dialect): d is ClientDialect {
  return (CLIENT_DIALECTS as readonly string[]).includes(d);
}

export function rescoreRun(
  store: ResultsStore,
  fromRun: string,
  now: Date = new Date(),
): RescoreResult {
  const started = performance.now();
  const source = store.requireRun(fromRun);
  const runId = newRunId(now);
  const cells = new Map<string, CellTally>();
  for (const cell of store.cells(fromRun))
    cells.set(cellKeyString(cell), { old: cell, verdicts: [] });
  const fields = new Map(
    store.probesOfRun(fromRun).map((p) => [`${p.probeId}|${p.definitionHash}`, p]),
  );
  let attempts = 0;
  store.db.transaction(() => {
    store.beginRun({
      id: runId,
      startedAt: now.toISOString(),
      gatecheckVersion: source.gatecheckVersion,
      ...(source.gitSha ? { gitSha: source.gitSha } : {}),
      args: { rescoreOf: fromRun },
      ...(source.shard ? { shard: source.shard } : {}),
    });
    copyGatewayRuns(store, fromRun, runId);
    const copy = attemptCopier(store, runId);
    for (const attempt of iterateAttemptsForRescore(store, fromRun)) {
      const tally = cells.get(cellKeyString(attempt.key));
      if (!tally) continue;
      const probe = fields.get(`${tally.old.probeId}|${tally.old.definitionHash}`);
      const clientRequest = JSON.parse(attempt.clientRequest) as StoredClientRequest;
      const clientResponse = JSON.parse(attempt.clientResponse) as StoredResponse;
      const forwarded = JSON.parse(attempt.forwarded) as ForwardedRecord[];
      let client: ClientDialect = tally.old.clientDialect;
      let backend: Dialect = tally.old.backendDialect;
      let field = probe?.field ?? "";
      if (attempt.phase === "control") {
        // The control leg went over the native route of the backend dialect.
        const native = dialectOfPath(clientRequest.path)?.dialect ?? backend;
        if (isClientDialect(native)) {
          field = controlField(client, native, field) ?? field;
          client = native;
          backend = native;
        }
      }
      const exchange = exchangeFromWire({
        client,
        backend,
        mode: attempt.key.mode as Mode,
        clientRequest,
        forwarded,
        clientResponse,
        secrets: CANARY_VALUES,
        ...(attempt.timings ? { timings: attempt.timings } : {}),
      });
      const judged = judgeAttempt(exchange, field, clientResponse);
      copy(attempt.rowid, JSON.stringify(judged.verdicts));
      if (attempt.phase === "control") tally.control = judged.verdict.verdict;
      else tally.verdicts.push(judged.verdict);
      attempts += 1;
    }
  })();
  let changed = 0;
  const writer = store.cellWriter();
  for (const tally of cells.values()) {
    const cell = refold(runId, tally);
    if (cell.verdict !== tally.old.verdict) changed += 1;
    writer.add({ cell, attempts: [] });
  }
  writer.close();
  store.finishRun(runId, "done");
  return {
    runId,
    fromRun,
    attempts,
    cells: cells.size,
    changed,
    elapsedMs: Math.round(performance.now() - started),
  };
}

/** A cell with its verdict folded again; cells that had no attempts keep theirs. */
function refold(runId: string, tally: CellTally): CellRecord {
  const { old } = tally;
  const { controlVerdict: _oldControl, ...rest } = old;
  const base: CellRecord = {
    ...rest,
    runId,
    ...(tally.control ? { controlVerdict: tally.control } : {}),
  };
  if (tally.verdicts.length === 0)
    return old.controlVerdict && !tally.control
      ? { ...base, controlVerdict: old.controlVerdict }
      : base;
  const folded = foldVerdicts(tally.verdicts.map((v) => v.verdict));
  const representative = tally.verdicts.find((v) => v.verdict === folded.verdict);
  const { cause: _oldCause, ...withoutCause } = base;
  return {
    ...withoutCause,
    verdict: folded.verdict,
    reason: representative?.reason ?? old.reason,
    ...(representative?.cause ? { cause: representative.cause } : {}),
    runs: folded.n,
    counts: folded.counts,
    determinism: folded.k,
    stable: folded.stable,
  };
}
