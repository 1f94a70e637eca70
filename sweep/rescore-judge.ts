/**
 * One stored attempt judged again: the step of `rescore` that runs in the main thread or in
 * a worker (rescore-worker.ts). A `StoredJob` carries plain data only (it crosses a thread
 * boundary by structured clone): the route the cell ran on, the field judged and the ids of
 * the stored bytes and verdict list, which the judging thread reads from its own database
 * connection, so the bytes never cross threads. `judgeStoredAttempt` is the pure core on
 * the stored JSON texts (also what scripts/bench/rescore-judge-bench.ts times).
 */
import type { ClientDialect, Dialect, Mode } from "../dialects/dialect.ts";
import type { Verdict } from "../probes/verdict.ts";
import type { AttemptPhase } from "../results/records.ts";
import type { StoredTextsReader } from "../results/rescore-io.ts";
import type { ForwardedRecord, StoredClientRequest, StoredResponse } from "./exchange-from-wire.ts";
import { judgeStoredSides } from "./judge-attempt.ts";
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

/**
 * An attempt to judge again, by the rowid of its judgement (rescore-io.ts), with what names
 * it in errors (`storedRef`; built only when one is raised).
 */
export interface StoredJob
  extends Omit<RescoreJob, "ref" | "clientRequest" | "forwarded" | "clientResponse" | "timings"> {
  rowid: number;
  probeId: string;
  attemptNo: number;
}

/** How an error names a stored attempt: `attempt 12 (oc-seed stream main #1) of run R`. */
export function storedRef(runId: string, job: StoredJob): string {
  return `attempt ${job.rowid} (${job.probeId} ${job.mode} ${job.phase} #${job.attemptNo}) of run ${runId}`;
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
function parseStored<T>(ref: () => string, column: keyof typeof COLUMN_TEXT, text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new RescoreError(
      "bad-stored-attempt",
      `${ref()}: column ${column} is not valid JSON (${(error as Error).message})`,
    );
  }
}

/** The lens's verdicts on one stored attempt, before they are written as text. */
interface JudgedVerdicts {
  verdicts: Verdict[];
  verdict: Verdict;
  lensMs: number;
}

function judgeStored(
  job: Omit<StoredJob, "rowid" | "probeId" | "attemptNo">,
  texts: Pick<RescoreJob, "clientRequest" | "forwarded" | "clientResponse">,
  timings: { totalMs: number } | undefined,
  ref: () => string,
): JudgedVerdicts {
  const clientRequest = parseStored<StoredClientRequest>(
    ref,
    "client_request",
    texts.clientRequest,
  );
  const clientResponse = parseStored<StoredResponse>(ref, "client_response", texts.clientResponse);
  const forwarded = parseStored<ForwardedRecord[]>(ref, "forwarded", texts.forwarded);
  const { client, backend, field } = storedAttemptRoute(
    { phase: job.phase, path: clientRequest.path },
    job,
  );
  const judged = judgeStoredSides(
    {
      client,
      backend,
      mode: job.mode,
      clientRequest,
      forwarded,
      clientResponse,
      ...(timings ? { timings } : {}),
    },
    field,
  );
  return { verdicts: judged.verdicts, verdict: judged.verdict, lensMs: judged.lensMs };
}

export function judgeStoredAttempt(job: RescoreJob): RescoreJudgement {
  const judged = judgeStored(job, job, job.timings, () => job.ref);
  return {
    verdictsJson: JSON.stringify(judged.verdicts),
    verdict: judged.verdict,
    lensMs: judged.lensMs,
  };
}

/**
 * Judge a batch of `runId`'s attempts (in rowid order), reading their stored texts in one
 * pass through `read`, and the texts of their verdict lists in one more.
 */
export function judgeStoredJobs(
  runId: string,
  jobs: readonly StoredJob[],
  read: StoredTextsReader,
): StoredJudgement[] {
  const first = jobs[0];
  const last = jobs.at(-1);
  if (!first || !last) return [];
  const rows = read.attempts(runId, first.rowid, last.rowid);
  // Each distinct list once: repeats of a cell, and the grown runs of sweep-bench, share them.
  const texts = read.lists([...new Set(rows.map((row) => row.verdictsId))]);
  let next = 0;
  return jobs.map((job) => {
    // Both in rowid order; rows of attempts outside the run's cells are passed over.
    while (next < rows.length && (rows[next]?.rowid ?? 0) < job.rowid) next += 1;
    const row = rows[next];
    if (row?.rowid !== job.rowid) {
      throw new RescoreError(
        "bad-stored-attempt",
        `${storedRef(runId, job)}: its stored bytes are missing`,
      );
    }
    const { verdicts, verdict, lensMs } = judgeStored(job, row, totalMsOf(row.timings), () =>
      storedRef(runId, job),
    );
    const text = JSON.stringify(verdicts);
    return text === texts.get(row.verdictsId)
      ? { verdict, lensMs }
      : { changedVerdicts: text, verdict, lensMs };
  });
}

/** The client's total wait from the stored timings (failure probes judge it). */
function totalMsOf(text: string): { totalMs: number } | undefined {
  try {
    const timings = JSON.parse(text) as { totalMs?: unknown } | null;
    return typeof timings?.totalMs === "number" ? { totalMs: timings.totalMs } : undefined;
  } catch {
    return undefined;
  }
}
