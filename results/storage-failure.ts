/**
 * What a failure of the disk or of SQLite means to the user, said once: a read-only, locked,
 * damaged or missing database, a full disk. Every command that opens or writes a results
 * database (or writes its outputs) turns better-sqlite3's `SqliteError` and Node's file-system
 * errors into a `ResultsError` naming the file and what to do, which the CLI ends with exit 2
 * and `serve` answers with 503. Known by shape, not class: the CLI's entry must not load
 * better-sqlite3 to read an error (cli-bundle.test.ts holds its imports to commander).
 */
import { accessSync, constants, existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ResultsError, type ResultsErrorCode } from "./results-error.ts";

export type StorageFault =
  | "read-only"
  | "cannot-open"
  | "locked"
  | "not-a-database"
  | "damaged"
  | "full"
  | "io"
  | "permission";

interface FaultRow {
  fault: StorageFault;
  /** What happened to the file, after its path and a colon. */
  what: string;
  /** What the user can do. */
  todo: string;
}

const ROWS = {
  "read-only": {
    fault: "read-only",
    what: "read-only (the file, its folder or its file system)",
    todo: "pass a writable path, or copy the database somewhere writable and pass that with --db",
  },
  "cannot-open": {
    fault: "cannot-open",
    what: "it or its folder is missing, or its folder is read-only (SQLite makes its -wal and -shm files beside a database, even to read it)",
    todo: "check the path; for a database in a read-only folder, copy it somewhere writable and pass that with --db",
  },
  locked: {
    fault: "locked",
    what: "locked by another process (a sweep, merge or prune writing it)",
    todo: "wait until that process ends and run again",
  },
  "not-a-database": {
    fault: "not-a-database",
    what: "not a SQLite database",
    todo: "check the path (--db names a results database made by `gatecheck sweep`)",
  },
  damaged: {
    fault: "damaged",
    what: "damaged (SQLite reports it corrupt)",
    todo: "restore a copy of it, or start a new database",
  },
  full: {
    fault: "full",
    what: "the disk (or the file system holding it) is full",
    todo: "free some space and run again",
  },
  io: {
    fault: "io",
    what: "an I/O error of the disk holding it",
    todo: "check the disk (space, a removed drive) and run again",
  },
  permission: {
    fault: "permission",
    what: "this user may not open or write it (permissions)",
    todo: "run as a user who may write it, or pass another path",
  },
} as const satisfies Record<StorageFault, FaultRow>;

/**
 * SQLite's primary result codes that are the storage's fault, not gatecheck's
 * (https://www.sqlite.org/rescode.html); an extended code (`SQLITE_IOERR_WRITE`) is read by
 * its primary part.
 */
const SQLITE_FAULTS: Readonly<Record<string, StorageFault>> = {
  SQLITE_READONLY: "read-only", // https://www.sqlite.org/rescode.html#readonly
  SQLITE_CANTOPEN: "cannot-open", // https://www.sqlite.org/rescode.html#cantopen
  SQLITE_BUSY: "locked", // https://www.sqlite.org/rescode.html#busy
  SQLITE_LOCKED: "locked", // https://www.sqlite.org/rescode.html#locked
  SQLITE_NOTADB: "not-a-database", // https://www.sqlite.org/rescode.html#notadb
  SQLITE_CORRUPT: "damaged", // https://www.sqlite.org/rescode.html#corrupt
  SQLITE_FULL: "full", // https://www.sqlite.org/rescode.html#full
  SQLITE_IOERR: "io", // https://www.sqlite.org/rescode.html#ioerr
  SQLITE_PERM: "permission", // https://www.sqlite.org/rescode.html#perm
  SQLITE_AUTH: "permission", // https://www.sqlite.org/rescode.html#auth
};

/** The errno codes of a file write that are the storage's fault (errno(3)). */
const ERRNO_FAULTS: Readonly<Record<string, StorageFault>> = {
  ENOSPC: "full", // no space left on device
  EDQUOT: "full", // disk quota exceeded
  EROFS: "read-only", // read-only file system
  EACCES: "permission", // permission denied
  EPERM: "permission", // operation not permitted (an immutable file, too)
  EIO: "io", // input/output error
};

function codeOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** The storage fault behind an error (its own, or its `cause`'s), or undefined when it is not one. */
export function storageFaultOf(error: unknown): StorageFault | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = codeOf(e);
    if (code === undefined) continue;
    if (e.name === "SqliteError") {
      const primary = code.match(/^SQLITE_[A-Z]+/)?.[0] ?? code;
      const fault = SQLITE_FAULTS[primary];
      if (fault) return fault;
    } else if (ERRNO_FAULTS[code]) {
      return ERRNO_FAULTS[code];
    }
  }
  return undefined;
}

/**
 * A storage failure as a ResultsError naming the file, what happened and what to do (the
 * original kept as `cause`), or undefined when the error is not one.
 */
export function storageError(
  error: unknown,
  path: string,
  code: ResultsErrorCode = "storage",
): ResultsError | undefined {
  const fault = storageFaultOf(error);
  if (!fault) return undefined;
  const row = ROWS[fault];
  const what = fault === "cannot-open" ? (whyNotOpened(path) ?? row.what) : row.what;
  const detail = error instanceof Error ? ` (${error.message})` : "";
  const lead = code === "db-open" ? `cannot open results database ${path}` : path;
  return new ResultsError(code, `${lead}: ${what}${detail}; ${row.todo}`, { cause: error });
}

/** SQLite says only "unable to open database file": the file system says which case it is. */
function whyNotOpened(path: string): string | undefined {
  const folder = dirname(resolve(path));
  if (!existsSync(folder)) return `its folder ${folder} does not exist`;
  if (!existsSync(path)) return "no such file";
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    return `its folder ${folder} is read-only, and SQLite makes its -wal and -shm files beside a database, even to read it`;
  }
  return undefined;
}

/** Whether an error reached us through better-sqlite3 (a statement's or an open's failure). */
export function isSqliteError(error: unknown): error is Error & { code: string } {
  return error instanceof Error && error.name === "SqliteError" && codeOf(error) !== undefined;
}
