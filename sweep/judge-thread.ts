/**
 * Judging off the sweep's main thread. The main thread serves the mock, drives the HTTP
 * clients and stores results; judging an attempt and reading its response through the
 * official SDK took 40% of its time in a sweep through `direct` (a first run in a fresh
 * process, where the SDKs' and the lens's code is not yet compiled), so a second thread does
 * it on the machine's other core.
 *
 * `judge` is a drop-in for `judgeWire` that never changes a result, only where it is
 * computed. While the worker is built and loaded, attempts wait for it: judging them here
 * meanwhile cost more than the wait, because this thread's copy of the lens and SDK code
 * was still cold. Once it runs, an attempt is judged here only when the worker already has
 * `maxQueued` waiting. After the worker fails, the attempts it held are judged here again,
 * so none is lost, later ones are judged here, and `onFailure` is told once.
 */
import { Worker } from "node:worker_threads";
import { judgeWire, type WireJudgeInput, type WireJudgement } from "./judge-wire.ts";
import type { JudgeJob, JudgeWorkerMessage } from "./judge-worker.ts";
import { workerBundleAsync } from "./worker-bundle.ts";

export interface JudgeThreadOptions {
  /** Judge here when this many attempts already wait in the worker. */
  maxQueued?: number;
  /** Told once when the worker cannot start or dies; later attempts are judged here. */
  onFailure?: (message: string) => void;
  /** The worker's file; default: the bundled judge-worker.ts, built without blocking. */
  entry?: () => Promise<string | URL>;
}

interface Pending {
  input: WireJudgeInput;
  resolve(judged: Promise<WireJudgement> | WireJudgement): void;
}

/**
 * Measured on the 2-core machine, a sweep through `direct` at concurrency 8, six runs each
 * alternating: judging here from 4 waiting attempts on ran 161–241 cells/s (median 178),
 * never judging here 155–239 (median 212). An attempt judged here runs on this thread's
 * still cold copy of the lens and SDK code, which costs more than the wait. This bound only
 * keeps a worker that falls far behind (many gateway columns at once) from holding cells.
 */
export const DEFAULT_MAX_QUEUED = 32;

export class JudgeThread {
  private worker: Worker | undefined;
  /** The worker said its modules are loaded (before that, `maxQueued` does not apply). */
  private ready = false;
  private failed = false;
  private closed = false;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly maxQueued: number;
  /** Attempts judged by the worker and by this thread (what a sweep reports). */
  readonly judged = { worker: 0, here: 0 };
  private started: (running: boolean) => void = () => {};
  /** Settles true once the worker runs, false if it failed first. */
  readonly running = new Promise<boolean>((resolve) => {
    this.started = resolve;
  });

  constructor(private readonly options: JudgeThreadOptions = {}) {
    this.maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
    const entry = options.entry ?? (() => workerBundleAsync("judge-worker"));
    entry().then(
      (file) => this.spawn(file),
      (error: Error) => this.fail(`cannot build the judging worker: ${error.message}`),
    );
  }

  private spawn(file: string | URL): void {
    if (this.closed) return;
    // execArgv []: a parent's `--import tsx` is not wanted in a bundle that needs no loader.
    const worker = new Worker(file, { execArgv: [] });
    this.worker = worker;
    worker.unref();
    // Attempts that came while the bundle was built: a worker takes messages posted before
    // its listener is there once it is.
    for (const [id, job] of this.pending)
      worker.postMessage({ id, input: job.input } satisfies JudgeJob);
    if (this.pending.size > 0) worker.ref();
    worker.on("message", (message: JudgeWorkerMessage) => {
      if ("ready" in message) {
        this.ready = true;
        this.started(true);
        return;
      }
      const job = this.pending.get(message.id);
      if (!job) return;
      this.settle(message.id);
      // A job the worker could not judge is judged here: the same error, or a result.
      job.resolve(message.ok ? message.judged : judgeWire(job.input));
    });
    worker.on("error", (error) => this.fail(`the judging worker crashed: ${error.message}`));
    worker.on("exit", (code) => {
      if (!this.closed) this.fail(`the judging worker exited with code ${code}`);
    });
  }

  judge = (input: WireJudgeInput): Promise<WireJudgement> => {
    if (this.failed || this.closed || (this.ready && this.pending.size >= this.maxQueued)) {
      this.judged.here += 1;
      return judgeWire(input);
    }
    this.judged.worker += 1;
    const id = this.nextId++;
    const worker = this.worker;
    return new Promise<WireJudgement>((resolve) => {
      this.pending.set(id, { input, resolve });
      if (!worker) return; // posted by spawn()
      // Held open only while it owes an answer, so a sweep that forgets close() still ends.
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, input } satisfies JudgeJob);
    });
  };

  private settle(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
  }

  private fail(message: string): void {
    if (this.failed || this.closed) return;
    this.failed = true;
    this.started(false);
    this.options.onFailure?.(`${message}; judging in the main thread from here on`);
    this.takeBackHeld();
    void this.worker?.terminate();
  }

  /** The attempts the worker still owes, judged here instead (its answers are ignored). */
  private takeBackHeld(): void {
    for (const [id, job] of this.pending) {
      this.settle(id);
      this.judged.worker -= 1;
      this.judged.here += 1;
      job.resolve(judgeWire(job.input));
    }
  }

  /** Stop the worker; attempts still waiting in it are judged here first. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.takeBackHeld();
    this.closed = true;
    this.started(false);
    await this.worker?.terminate();
  }
}
