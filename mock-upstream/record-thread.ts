/**
 * A recorder whose lines are rendered and written on a worker thread (record-worker.ts).
 * Under load the mock's main thread is what limits it, and rendering a record's line
 * (escaping the body into JSON) plus writing it and keeping it in memory was most of what
 * recording cost there. Here the main thread only lists each record's parts as text
 * (record-message.ts) and hands a batch over every so often as one buffer.
 *
 * Guarantees, as with the main-thread `Recorder`:
 * - a record is visible to `list()` / `listJson()` as soon as `addTraffic` returns, so
 *   before the client sees a byte of its reply: a read first posts the pending batch, then
 *   asks the thread, which answers after every record posted before the question (one port,
 *   in order). The main thread waits for the answer (`Atomics.wait`): reads are rare (the
 *   sweep reads an attempt's few records once) and answered in well under a millisecond;
 * - the file gets every record, each line whole, in one writer (the thread's `RecordFile`);
 *   a line lands in the file shortly after the reply, and `close()` returns only once every
 *   line posted before it is in the file and the file is closed.
 *
 * After `close()` the thread keeps answering reads from memory (as the main-thread recorder
 * does); it never keeps the process alive, and it is stopped once this recorder is garbage.
 */
import {
  MessageChannel,
  type MessagePort,
  receiveMessageOnPort,
  Worker,
} from "node:worker_threads";
import { MockError } from "./mock-error.ts";
import type { MockRecord } from "./record.ts";
import { encodeTrafficLine, RecordBatch } from "./record-message.ts";
import type { RecordCall, RecordCallResult, RecordWorkerData } from "./record-worker.ts";
import type { RecorderLimits, RecorderStats, RecordFilter, RecordStore } from "./recorder.ts";
import type { TrafficLine } from "./traffic-record.ts";

const ENTRY = new URL("./record-worker-entry.mjs", import.meta.url);

/** A call waits this long for the thread (its first call may wait for the thread to load). */
const CALL_TIMEOUT_MS = 60_000;

/**
 * Records are handed over in batches, and rarely: a post wakes the recorder thread, and on
 * a busy machine the scheduler then often runs the woken thread in the poster's place, so
 * a post cost the main thread from 0.1 to 2 ms of wall time (measured at a load average of
 * 8 on 2 cores). A batch goes when it is this old, or this large, or when a read or
 * `close()` needs it.
 */
const BATCH_MS = 100;
const BATCH_RECORDS = 4096;
/** Bytes of pending records that are handed over at once (large bodies). */
const BATCH_BYTES = 8 * 1024 * 1024;

/** Stops the thread of a recorder nobody holds any more (closed or not). */
const stopWhenDropped = new FinalizationRegistry<Worker>((worker) => {
  worker.terminate().catch(() => {});
});

/** What the worker's event handlers share with the recorder, without holding it. */
interface ThreadState {
  failure: Error | undefined;
}

export class RecordThread implements RecordStore {
  readonly #worker: Worker;
  readonly #replies: MessagePort;
  readonly #signal = new Int32Array(new SharedArrayBuffer(4));
  readonly #thread: ThreadState = { failure: undefined };
  /** The records not yet handed over. */
  readonly #batch = new RecordBatch();
  #postQueued = false;
  #seq = 0;
  #recorded = 0;
  #closed: Promise<void> | undefined;

  constructor(file: string, listener: string, limits: RecorderLimits = {}) {
    const { port1, port2 } = new MessageChannel();
    const workerData: RecordWorkerData = {
      file,
      listener,
      limits,
      replies: port2,
      signal: this.#signal,
    };
    // execArgv []: the entry registers tsx itself; inheriting a parent's `--import tsx`
    // as well would register it twice.
    this.#worker = new Worker(ENTRY, { execArgv: [], workerData, transferList: [port2] });
    this.#worker.unref();
    const thread = this.#thread;
    this.#worker.on("error", (error) => {
      thread.failure ??= error;
    });
    this.#replies = port1;
    stopWhenDropped.register(this, this.#worker);
  }

  nextSeq(): number {
    this.#seq += 1;
    return this.#seq;
  }

  addTraffic(line: TrafficLine): void {
    this.#recorded += 1;
    encodeTrafficLine(line, this.#batch);
    if (this.#batch.records >= BATCH_RECORDS || this.#batch.size >= BATCH_BYTES) this.#post();
    else if (!this.#postQueued) {
      this.#postQueued = true;
      setTimeout(() => this.#post(), BATCH_MS);
    }
  }

  #post(): void {
    this.#postQueued = false;
    if (this.#batch.records === 0) return;
    const batch = this.#batch.take();
    this.#worker.postMessage(batch, [batch.buffer]);
  }

  /** Ask the thread, after every record posted so far, and wait for the answer. */
  #call(call: RecordCall): RecordCallResult {
    this.#post();
    if (this.#thread.failure) throw this.#failed(this.#thread.failure.message);
    Atomics.store(this.#signal, 0, 0);
    this.#worker.postMessage(call);
    const deadline = Date.now() + CALL_TIMEOUT_MS;
    for (;;) {
      const got = receiveMessageOnPort(this.#replies);
      if (got) {
        const result = got.message as RecordCallResult;
        if ("fatal" in result) {
          this.#thread.failure = new Error(result.fatal);
          throw this.#failed(result.fatal);
        }
        return result;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        // A late answer would be taken for the next call's: no call is made after this.
        const reason = `no answer in ${CALL_TIMEOUT_MS / 1000} s`;
        this.#thread.failure = new Error(reason);
        throw this.#failed(reason);
      }
      Atomics.wait(this.#signal, 0, 0, left);
    }
  }

  #failed(reason: string): MockError {
    return new MockError("recorder-failed", `the recorder thread failed: ${reason}`);
  }

  list(filter: RecordFilter = {}): MockRecord[] {
    return JSON.parse(this.listJson(filter)) as MockRecord[];
  }

  listJson(filter: RecordFilter = {}): string {
    const result = this.#call({ call: "list", filter });
    return "json" in result ? result.json : "[]";
  }

  stats(): RecorderStats {
    const result = this.#call({ call: "stats" });
    if (!("stats" in result)) throw this.#failed("no stats in the answer");
    return result.stats;
  }

  get recorded(): number {
    return this.#recorded;
  }

  clear(): void {
    this.#post();
    this.#worker.postMessage({ call: "clear" } satisfies RecordCall);
  }

  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve, reject) => {
      const result = this.#call({ call: "close" });
      const failure = "closed" in result ? result.failure : undefined;
      if (failure) reject(failure);
      else resolve();
    });
    return this.#closed;
  }
}
