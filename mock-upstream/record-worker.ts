/**
 * The recorder thread (started by record-thread.ts): it renders each traffic record's line,
 * keeps the newest lines in memory, and appends them to the record file, with the same
 * `Recorder` a mock without a thread uses on its main thread, so the lines, the memory
 * limits and the file's guarantees are the same. Batches of records arrive as buffers
 * (record-message.ts); reads arrive as calls, answered on the reply port and signalled
 * through the shared word the main thread waits on.
 */
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { BatchReader, decodeTrafficLines, type EncodedBatch } from "./record-message.ts";
import {
  Recorder,
  type RecorderLimits,
  type RecorderStats,
  type RecordFilter,
} from "./recorder.ts";

export interface RecordWorkerData {
  file: string;
  listener: string;
  limits: RecorderLimits;
  /** Where call results go (the main thread reads them synchronously). */
  replies: MessagePort;
  /** Set to 1 when a result is on `replies`. */
  signal: Int32Array;
}

/** A read or a command, in order with the records posted before it. */
export type RecordCall =
  | { call: "list"; filter: RecordFilter }
  | { call: "stats" }
  | { call: "clear" }
  | { call: "close" };

export type RecordCallResult =
  | { json: string }
  | { stats: RecorderStats }
  | { closed: true; failure: Error | undefined }
  | { fatal: string };

const data = workerData as RecordWorkerData;
const recorder = new Recorder(data.file, data.limits);
const reader = new BatchReader();

function answer(result: RecordCallResult): void {
  data.replies.postMessage(result);
  Atomics.store(data.signal, 0, 1);
  Atomics.notify(data.signal, 0);
}

/** A batch of records (record-message.ts), or a call. */
type Incoming = EncodedBatch | RecordCall;

/** Set when a batch could not be read: every later call answers with it. */
let broken: string | undefined;

parentPort?.on("message", (message: Incoming) => {
  if ("buffer" in message) {
    if (broken) return;
    try {
      for (const line of decodeTrafficLines(message, data.listener, reader)) {
        recorder.addTraffic(line);
      }
    } catch (error) {
      // A bug, not bad input (the main thread wrote the batch): say so on every read
      // rather than go on with records missing.
      broken = (error as Error).message;
    }
    return;
  }
  if (broken && (message.call === "list" || message.call === "stats")) {
    answer({ fatal: broken });
    return;
  }
  switch (message.call) {
    case "list":
      answer({ json: recorder.listJson(message.filter) });
      return;
    case "stats":
      answer({ stats: recorder.stats() });
      return;
    case "clear":
      // Not answered: the next read is ordered after it anyway.
      recorder.clear();
      return;
    case "close":
      // The lines that did arrive are written all the same.
      recorder.close().then(
        () => answer({ closed: true, failure: broken ? new Error(broken) : undefined }),
        (error: Error) => answer({ closed: true, failure: error }),
      );
      return;
  }
});
