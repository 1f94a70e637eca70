/**
 * A rescore worker thread: judges the batches of stored attempts the main thread posts and
 * answers each with its judgements in the same order. It touches no database: the main
 * thread reads, and writes in rowid order, so a rescore with workers stores what one
 * without them stores.
 */
import { parentPort } from "node:worker_threads";
import {
  judgeStoredAttempt,
  RescoreError,
  type RescoreJob,
  type RescoreJudgement,
} from "./rescore-judge.ts";

export interface RescoreBatch {
  id: number;
  jobs: RescoreJob[];
}

export type RescoreBatchResult =
  | { id: number; ok: true; judgements: RescoreJudgement[] }
  | { id: number; ok: false; error: string; code?: RescoreError["code"] };

function judgeBatch(batch: RescoreBatch): RescoreBatchResult {
  try {
    return { id: batch.id, ok: true, judgements: batch.jobs.map(judgeStoredAttempt) };
  } catch (error) {
    // The message crosses back as data; the main thread raises it as its own error.
    const code = error instanceof RescoreError ? { code: error.code } : {};
    return { id: batch.id, ok: false, error: (error as Error).message ?? String(error), ...code };
  }
}

parentPort?.on("message", (batch: RescoreBatch) => {
  parentPort?.postMessage(judgeBatch(batch));
});
