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
import { storedExchange } from "../results/stored-exchange.ts";
import { judgeStoredExchange } from "./judge-attempt.ts";
import { storedAttemptField } from "./stored-route.ts";

export interface RescoreJob {
  /** Names the stored attempt in errors (`attempt 12 (oc-seed stream main #1)`). */
  ref: string;
  client: ClientDialect;
  backend: Dialect;
  mode: Mode;
  phase: AttemptPhase;
  /** The probe's field in the cell's client dialect ("" when the probe is unknown). */
  field: string;
  /** The stored exchange's text (the `exchange` column). */
  exchange: string;
}

/**
 * An attempt to judge again, by the rowid of its judgement (rescore-io.ts), with what names
 * it in errors (`storedRef`; built only when one is raised).
 */
export interface StoredJob extends Omit<RescoreJob, "ref" | "exchange"> {
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

/** The lens's verdicts on one stored attempt, before they are written as text. */
interface JudgedVerdicts {
  verdicts: Verdict[];
  verdict: Verdict;
  lensMs: number;
}

function judgeStored(
  job: Pick<StoredJob, "client" | "phase" | "field">,
  text: string,
  ref: () => string,
): JudgedVerdicts {
  let exchange: ReturnType<typeof storedExchange>;
  try {
    exchange = storedExchange(text, ref);
  } catch (error) {
    throw new RescoreError("bad-stored-attempt", (error as Error).message);
  }
  const judgedClient = exchange.route.client ?? job.client;
  const field = storedAttemptField(job.phase, job, judgedClient);
  const judged = judgeStoredExchange(exchange, field);
  return { verdicts: judged.verdicts, verdict: judged.verdict, lensMs: judged.lensMs };
}

export function judgeStoredAttempt(job: RescoreJob): RescoreJudgement {
  const judged = judgeStored(job, job.exchange, () => job.ref);
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
    const { verdicts, verdict, lensMs } = judgeStored(job, row.exchange, () =>
      storedRef(runId, job),
    );
    const text = JSON.stringify(verdicts);
    return text === texts.get(row.verdictsId)
      ? { verdict, lensMs }
      : { changedVerdicts: text, verdict, lensMs };
  });
}
