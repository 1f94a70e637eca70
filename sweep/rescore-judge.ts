/**
 * One stored attempt judged again: the step of `rescore` that runs in the main thread or in
 * a worker (rescore-worker.ts). A `StoredJob` carries plain data only (it crosses a thread
 * boundary by structured clone): the route the cell ran on, the field judged and the ids of
 * the stored bytes and verdict list, which the judging thread reads from its own database
 * connection, so the bytes never cross threads. `judgeStoredAttempt` is the pure core on
 * the stored JSON texts (also what scripts/bench/rescore-judge-bench.ts times).
 */
import type { ClientDialect, Dialect, Mode } from "../dialects/dialect.ts";
import { CANARY_VALUES } from "../probes/corpus/canaries.ts";
import type { Verdict } from "../probes/verdict.ts";
import type { AttemptPhase } from "../results/records.ts";
import type { StoredAttemptRow, StoredTextsReader } from "../results/rescore-io.ts";
import {
  exchangeFromWire,
  type ForwardedRecord,
  type StoredClientRequest,
  type StoredResponse,
} from "./exchange-from-wire.ts";
import { judgeAttempt } from "./judge-attempt.ts";
import { storedAttemptRoute } from "./stored-route.ts";

export interface RescoreJob {
  /** Names the stored attempt in errors (`attempt 12 (oc-seed stream main #1)`). */
  ref: string;
  client: ClientDialect;
  backend: Dialect;
  mode: Mode;
  phase: AttemptPhase;
  /** The probe's field in the cell's client dialect ("" when the probe is unknown). */
  field: string;
  clientRequest: string;
  forwarded: string;
  clientResponse: string;
  timings?: { totalMs: number };
}

/** An attempt to judge again, by the rowid of its judgement (rescore-io.ts). */
export interface StoredJob
  extends Omit<RescoreJob, "clientRequest" | "forwarded" | "clientResponse" | "timings"> {
  rowid: number;
}

/** A stored attempt's new judgement, as the thread that stores it needs it. */
export interface StoredJudgement {
  /** The new verdict list's text; undefined when it is the text the attempt has already. */
  changedVerdicts?: string;
  verdict: Verdict;
  lensMs: number;
}

export class RescoreError extends Error {
  override name = "RescoreError";
  constructor(
    readonly code: "bad-stored-attempt" | "worker-failed",
    message: string,
  ) {
    super(message);
  }
}

export interface RescoreJudgement {
  /** Every verdict the lens gave, as stored in `attempts.verdicts`. */
  verdictsJson: string;
  /** The probe's own verdict. */
  verdict: Verdict;
  /** Time inside the lens (judgeAttempt), for the benchmark's split of where time goes. */
  lensMs: number;
}

const COLUMN_TEXT = {
  client_request: "clientRequest",
  client_response: "clientResponse",
  forwarded: "forwarded",
} as const;

/** A stored JSON column, or an error naming the attempt and the column. */
function parseStored<T>(job: RescoreJob, column: keyof typeof COLUMN_TEXT): T {
  try {
    return JSON.parse(job[COLUMN_TEXT[column]]) as T;
  } catch (error) {
    throw new RescoreError(
      "bad-stored-attempt",
      `${job.ref}: column ${column} is not valid JSON (${(error as Error).message})`,
    );
  }
}

export function judgeStoredAttempt(job: RescoreJob): RescoreJudgement {
  const clientRequest = parseStored<StoredClientRequest>(job, "client_request");
  const clientResponse = parseStored<StoredResponse>(job, "client_response");
  const forwarded = parseStored<ForwardedRecord[]>(job, "forwarded");
  const { client, backend, field } = storedAttemptRoute(
    { phase: job.phase, path: clientRequest.path },
    job,
  );
  const exchange = exchangeFromWire({
    client,
    backend,
    mode: job.mode,
    clientRequest,
    forwarded,
    clientResponse,
    secrets: CANARY_VALUES,
    ...(job.timings ? { timings: job.timings } : {}),
  });
  const lensStarted = performance.now();
  const judged = judgeAttempt(exchange, field, clientResponse);
  const lensMs = performance.now() - lensStarted;
  return { verdictsJson: JSON.stringify(judged.verdicts), verdict: judged.verdict, lensMs };
}

/**
 * Judge a batch of `runId`'s attempts (in rowid order), reading their stored texts in one
 * pass through `read`.
 */
export function judgeStoredJobs(
  runId: string,
  jobs: readonly StoredJob[],
  read: StoredTextsReader,
): StoredJudgement[] {
  const first = jobs[0];
  const last = jobs.at(-1);
  if (!first || !last) return [];
  const rows = read(runId, first.rowid, last.rowid);
  let next = 0;
  return jobs.map((job) => {
    // Both in rowid order; rows of attempts outside the run's cells are passed over.
    while (next < rows.length && (rows[next]?.rowid ?? 0) < job.rowid) next += 1;
    const row = rows[next];
    if (row?.rowid !== job.rowid) {
      throw new RescoreError("bad-stored-attempt", `${job.ref}: its stored bytes are missing`);
    }
    return judgeStoredRow(job, row);
  });
}

function judgeStoredRow(job: StoredJob, text: StoredAttemptRow): StoredJudgement {
  const judged = judgeStoredAttempt({
    ...job,
    clientRequest: text.clientRequest,
    forwarded: text.forwarded,
    clientResponse: text.clientResponse,
    ...totalMsOf(text.timings),
  });
  return {
    ...(judged.verdictsJson === text.verdicts ? {} : { changedVerdicts: judged.verdictsJson }),
    verdict: judged.verdict,
    lensMs: judged.lensMs,
  };
}

/** The client's total wait from the stored timings (failure probes judge it). */
function totalMsOf(text: string): { timings?: { totalMs: number } } {
  try {
    const timings = JSON.parse(text) as { totalMs?: unknown } | null;
    return typeof timings?.totalMs === "number" ? { timings: { totalMs: timings.totalMs } } : {};
  } catch {
    return {};
  }
}
