/**
 * A sweep the disk stops (full, read-only, failing): the first storage failure (results/
 * storage-failure.ts) stops every column as Ctrl-C does, the finish goes on as far as the
 * disk lets it, the run is marked `interrupted` when that can still be written, and the sweep
 * ends with a SweepStorageError saying what happened, so the CLI can print the resume
 * command. Any other error is rethrown as it was.
 */
import { ResultsError } from "../results/results-error.ts";
import { storageError, storageFaultOf } from "../results/storage-failure.ts";
import type { ResultsStore } from "../results/store.ts";

export class SweepStorageError extends Error {
  constructor(
    message: string,
    readonly runId: string,
    /** Whether the run could be marked `interrupted` (else it stays `running`; a resume takes either). */
    readonly marked: boolean,
    options: ErrorOptions,
  ) {
    super(message, options);
    this.name = "SweepStorageError";
  }
}

export class StorageStop {
  readonly #stop = new AbortController();
  #failure: unknown;
  /** Aborted by the caller's signal or by a storage failure. */
  readonly signal: AbortSignal;

  constructor(signal: AbortSignal) {
    this.signal = AbortSignal.any([signal, this.#stop.signal]);
  }

  /** Whether the error is a storage failure, kept (the first) and stopping the sweep. */
  caught(error: unknown): boolean {
    const fault = storageFaultOf(error);
    // A file one gateway may not open (EACCES launching it) is that column's failure, not the disk's.
    if (!fault || fault === "permission") return false;
    this.#failure ??= error;
    this.#stop.abort();
    return true;
  }

  /** A finishing step: a storage failure is kept and the step skipped, any other thrown. */
  attempt<T>(step: () => T): T | undefined {
    try {
      return step();
    } catch (error) {
      if (this.caught(error)) return undefined;
      throw error;
    }
  }

  /** After the finish: when the disk failed, the run marked interrupted (if it can be) and the error thrown. */
  end(store: ResultsStore, runId: string, dbPath: string): void {
    const failure = this.#failure;
    if (failure === undefined) return;
    let marked = true;
    try {
      store.setRunStatus(runId, "interrupted");
    } catch {
      marked = false;
    }
    const said =
      failure instanceof ResultsError && failure.code === "storage"
        ? failure.message
        : (storageError(failure, dbPath)?.message ?? String(failure));
    throw new SweepStorageError(said, runId, marked, { cause: failure });
  }
}
