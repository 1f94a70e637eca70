/**
 * A rescore worker thread: judges the batches of stored attempts the main thread posts and
 * answers each with its judgements in the same order. It reads each attempt's stored bytes
 * through its own read-only connection to the batch's database (the source run is committed
 * before a rescore starts, so it reads what the main thread would); it writes nothing. The
 * main thread writes in rowid order, so a rescore with workers stores what one without them
 * stores.
 */
import { parentPort } from "node:worker_threads";
import { type StoredTextsReader, storedTextsReader } from "../results/rescore-io.ts";
import { type Db, openDb } from "../results/schema.ts";
import {
  judgeStoredJobs,
  RescoreError,
  type StoredJob,
  type StoredJudgement,
} from "./rescore-judge.ts";

export interface RescoreBatch {
  id: number;
  /** The results database and the run whose attempts the jobs are. */
  dbPath: string;
  runId: string;
  jobs: StoredJob[];
}

export type RescoreBatchResult =
  | { id: number; ok: true; judgements: StoredJudgement[] }
  | { id: number; ok: false; error: string; code?: RescoreError["code"] };

/** One connection per database this worker has been asked about (a pool may serve several). */
const readers = new Map<string, { db: Db; read: StoredTextsReader }>();

function readerFor(dbPath: string): StoredTextsReader {
  let reader = readers.get(dbPath);
  if (!reader) {
    const db = openDb(dbPath, { readonly: true });
    reader = { db, read: storedTextsReader(db) };
    readers.set(dbPath, reader);
  }
  return reader.read;
}

function judgeBatch(batch: RescoreBatch): RescoreBatchResult {
  try {
    const read = readerFor(batch.dbPath);
    return {
      id: batch.id,
      ok: true,
      judgements: judgeStoredJobs(batch.runId, batch.jobs, read),
    };
  } catch (error) {
    // The message crosses back as data; the main thread raises it as its own error.
    const code = error instanceof RescoreError ? { code: error.code } : {};
    return { id: batch.id, ok: false, error: (error as Error).message ?? String(error), ...code };
  }
}

parentPort?.on("message", (batch: RescoreBatch) => {
  parentPort?.postMessage(judgeBatch(batch));
});
