/**
 * The sweep's batched writer. A cell and its new attempts are one unit: a unit is written
 * whole inside one transaction or not at all, so a crash leaves either the cell with its
 * attempts or neither, and `doneCells` never names a cell whose attempts are missing.
 *
 * Units queue in memory and flush when the queue holds `batchRows` rows (cells + attempts),
 * when `maxDelayMs` has passed since the oldest queued unit, on `flush()`, and on `close()`.
 */

import type { CellWrite } from "./records.ts";
import { cellKeyString } from "./records.ts";
import { ResultsError } from "./results-error.ts";
import {
  ATTEMPT_KEY_COLUMNS,
  attemptToRow,
  CELL_COLUMNS,
  CELL_KEY_COLUMNS,
  cellToRow,
  EXCHANGE_COLUMNS,
  placeholders,
  quoted,
} from "./row-mapping.ts";
import type { Db } from "./schema.ts";
import { storageError } from "./storage-failure.ts";
import { verdictListInterner } from "./verdict-lists.ts";

export interface CellWriterOptions {
  /** Flush when this many rows are queued. */
  batchRows?: number;
  /** Flush at the latest this long after a unit was queued (0 disables the timer). */
  maxDelayMs?: number;
}

export interface CellWriter {
  /** Queue a cell (inserted, or updated when it exists) with its new attempts. */
  add(write: CellWrite): void;
  /** Write everything queued now. */
  flush(): void;
  /** Flush and stop accepting writes. The database stays open (the store owns it). */
  close(): void;
  /** Units written so far. */
  readonly written: number;
}

/** Failures named in one error; the rest are counted. */
const MAX_NAMED = 5;

const UPDATABLE = CELL_COLUMNS.filter((c) => !(CELL_KEY_COLUMNS as readonly string[]).includes(c));

export function createCellWriter(db: Db, options: CellWriterOptions = {}): CellWriter {
  const batchRows = options.batchRows ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 1000;
  const upsertCell = db.prepare(
    `INSERT INTO cells (${quoted(CELL_COLUMNS)}) VALUES (${placeholders(CELL_COLUMNS)})
     ON CONFLICT (run_id, "column", route_id, probe_id, mode) DO UPDATE SET
     ${UPDATABLE.map((c) => `"${c}" = excluded."${c}"`).join(", ")}`,
  );
  const insertExchange = db.prepare(
    `INSERT INTO exchanges (${quoted(EXCHANGE_COLUMNS)}) VALUES (${placeholders(EXCHANGE_COLUMNS)})`,
  );
  const insertJudgement = db.prepare(
    `INSERT INTO judgements (${quoted(ATTEMPT_KEY_COLUMNS)}, verdicts_id, exchange_id)
     VALUES (${placeholders(ATTEMPT_KEY_COLUMNS)}, @verdicts_id, @exchange_id)`,
  );
  const verdictLists = verdictListInterner(db);
  const insertAttempt = (row: Record<string, unknown>): void => {
    const exchangeId = insertExchange.run(row).lastInsertRowid;
    const verdictsId = verdictLists.idOf(String(row.verdicts));
    insertJudgement.run({ ...row, verdicts_id: verdictsId, exchange_id: exchangeId });
  };
  const writeUnits = db.transaction((units: CellWrite[]) => {
    for (const unit of units) {
      try {
        upsertCell.run(cellToRow(unit.cell));
      } catch (error) {
        throw new ResultsError(
          "bad-record",
          `cell ${cellKeyString(unit.cell)} in run ${unit.cell.runId}: ${(error as Error).message}`,
          { cause: error },
        );
      }
      for (const attempt of unit.attempts) {
        try {
          insertAttempt(attemptToRow(attempt));
        } catch (error) {
          throw new ResultsError(
            "bad-record",
            `attempt ${attempt.phase} #${attempt.attemptNo} of cell ${cellKeyString(attempt)} in run ${attempt.runId}: ${(error as Error).message}`,
            { cause: error },
          );
        }
      }
    }
  });

  let queue: CellWrite[] = [];
  let queuedRows = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let written = 0;
  // A timer flush that failed has no caller to throw to; the next call rethrows it.
  let deferredError: unknown;

  function rethrowDeferred(): void {
    if (deferredError === undefined) return;
    const error = deferredError;
    deferredError = undefined;
    throw error;
  }

  function flushFromTimer(): void {
    try {
      flush();
    } catch (error) {
      deferredError = error;
    }
  }

  function flush(): void {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (queue.length === 0) return;
    const units = queue;
    queue = [];
    queuedRows = 0;
    try {
      writeUnits(units);
      written += units.length;
    } catch (error) {
      verdictLists.forget(); // the lists it stored rolled back with it
      // A full or failing disk refuses every unit alike: said once, for the sweep to stop on.
      const storage = storageError(error, db.name);
      if (storage) throw storage;
      // The batch rolled back as a whole. Write unit by unit so one bad unit costs only
      // itself, and name every unit that could not be written.
      const failures: string[] = [];
      for (const unit of units) {
        try {
          writeUnits([unit]);
          written += 1;
        } catch (error) {
          verdictLists.forget();
          failures.push((error as Error).message);
        }
      }
      if (failures.length > 0) {
        throw new ResultsError(
          "bad-record",
          `${failures.length} cell write(s) refused: ${failures.slice(0, MAX_NAMED).join("; ")}${failures.length > MAX_NAMED ? `; ... and ${failures.length - MAX_NAMED} more` : ""}`,
        );
      }
    }
  }

  return {
    add(write) {
      if (closed) throw new ResultsError("writer-closed", "cell writer is closed");
      rethrowDeferred();
      for (const attempt of write.attempts) {
        if (
          cellKeyString(attempt) !== cellKeyString(write.cell) ||
          attempt.runId !== write.cell.runId
        ) {
          throw new ResultsError(
            "bad-record",
            `attempt ${cellKeyString(attempt)} (run ${attempt.runId}) queued with cell ${cellKeyString(write.cell)} (run ${write.cell.runId})`,
          );
        }
      }
      queue.push(write);
      queuedRows += 1 + write.attempts.length;
      if (queuedRows >= batchRows) flush();
      else if (maxDelayMs > 0 && !timer) {
        timer = setTimeout(flushFromTimer, maxDelayMs);
        // A pending flush must not keep the process alive; close() flushes anyway.
        timer.unref();
      }
    },
    flush() {
      rethrowDeferred();
      flush();
    },
    close() {
      if (closed) return;
      closed = true;
      // Flush what is queued even when an earlier timer flush failed; then report that failure.
      const earlier = deferredError;
      deferredError = undefined;
      flush();
      if (earlier !== undefined) throw earlier;
    },
    get written() {
      return written;
    },
  };
}
