/**
 * The worker threads of a parallel rescore. `judge(jobs)` sends one batch to the worker
 * with the fewest batches in flight and resolves with the judgements in job order; the
 * caller awaits batches in the order it sent them, so the results are written in rowid
 * order whatever worker finished first.
 */
import { Worker } from "node:worker_threads";
import { RescoreError, type StoredJob, type StoredJudgement } from "./rescore-judge.ts";
import type { RescoreBatch, RescoreBatchResult } from "./rescore-worker.ts";
import { workerBundle } from "./worker-bundle.ts";

/** Through tsx: used only when the bundle cannot be built (worker-bundle.ts). */
const TSX_ENTRY = new URL("./rescore-worker-entry.mjs", import.meta.url);

function workerEntry(): { entry: URL | string; bundled: boolean } {
  try {
    return { entry: workerBundle("rescore-worker"), bundled: true };
  } catch {
    return { entry: TSX_ENTRY, bundled: false };
  }
}

interface Pending {
  resolve(judgements: StoredJudgement[]): void;
  reject(error: Error): void;
}

interface Lane {
  worker: Worker;
  pending: Map<number, Pending>;
}

export class RescoreWorkerPool {
  private readonly lanes: Lane[];
  private nextId = 0;
  private failure: Error | undefined;
  /** Whether the workers run the bundled file (false: the slower tsx entry). */
  readonly bundled: boolean;

  constructor(size: number) {
    const { entry, bundled } = workerEntry();
    this.bundled = bundled;
    this.lanes = Array.from({ length: Math.max(1, size) }, () => this.startLane(entry));
  }

  private startLane(entry: URL | string): Lane {
    // execArgv []: the tsx entry registers tsx itself; inheriting a parent's `--import tsx`
    // as well would register it twice (and the bundle needs no loader at all).
    const worker = new Worker(entry, { execArgv: [] });
    const lane: Lane = { worker, pending: new Map() };
    worker.on("message", (result: RescoreBatchResult) => {
      const pending = lane.pending.get(result.id);
      if (!pending) return;
      lane.pending.delete(result.id);
      if (result.ok) pending.resolve(result.judgements);
      else pending.reject(new RescoreError(result.code ?? "worker-failed", result.error));
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const pending of lane.pending.values()) pending.reject(error);
      lane.pending.clear();
    };
    worker.on("error", (error) =>
      fail(new RescoreError("worker-failed", `rescore worker crashed: ${error.message}`)),
    );
    worker.on("exit", (code) => {
      if (lane.pending.size > 0) {
        fail(new RescoreError("worker-failed", `rescore worker exited with code ${code}`));
      }
    });
    return lane;
  }

  get size(): number {
    return this.lanes.length;
  }

  /** Judge `jobs`, attempts of run `runId` in the results database at `dbPath`. */
  judge(dbPath: string, runId: string, jobs: StoredJob[]): Promise<StoredJudgement[]> {
    if (this.failure) return Promise.reject(this.failure);
    const lane = this.lanes.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    const judged = new Promise<StoredJudgement[]>((resolve, reject) => {
      lane.pending.set(id, { resolve, reject });
      const batch: RescoreBatch = { id, dbPath, runId, jobs };
      lane.worker.postMessage(batch);
    });
    // A caller that stops at the first failure leaves later batches unawaited; their
    // rejection is the same failure, not a second, unhandled one.
    judged.catch(() => {});
    return judged;
  }

  async close(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.worker.terminate()));
  }
}
