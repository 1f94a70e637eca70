/**
 * The results database's schema, versioned with SQLite's `user_version`: opening a file
 * applies the migrations it lacks (results/migrations.ts) or, read-only, says what to do.
 */
import Database from "better-sqlite3";
import { registerStoredExchange } from "./legacy-exchange.ts";
import { MIGRATIONS } from "./migrations.ts";
import { ResultsError } from "./results-error.ts";
import { storageError } from "./storage-failure.ts";
import { registerSubjectOf } from "./subject-function.ts";
import { registerVerdictsDigest } from "./verdict-lists.ts";

export type Db = Database.Database;

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The version whose migration stores every attempt as one exchange (results/legacy-exchange.ts). */
const STORED_EXCHANGE_VERSION = 7;

export interface OpenOptions {
  readonly?: boolean;
  /** Create the file when missing (writers); readers want a clear error instead. */
  create?: boolean;
}

/**
 * Open a results database, applying pending migrations when writable. A read-only open of an
 * older gatecheck database migrates it first, as the next sweep would (a user upgrading
 * gatecheck reads last night's file with `report` or `query`); one that cannot be written, or
 * whose schema is newer than this code or not gatecheck's, is an error, never a guess.
 */
export function openDb(path: string, options: OpenOptions = {}): Db {
  const readonly = options.readonly ?? false;
  let db: Db | undefined;
  try {
    db = new Database(path, { readonly, fileMustExist: readonly || !options.create });
    return readonly ? readyReader(db, path, options) : readyWriter(db, path);
  } catch (error) {
    if (db?.open) db.close();
    // Read-only, locked, not a database, a missing folder, a full disk: said with what to do.
    if (error instanceof ResultsError) throw error;
    throw (
      storageError(error, path, "db-open") ??
      new ResultsError(
        "db-open",
        `cannot open results database ${path}: ${(error as Error).message}`,
        {
          cause: error,
        },
      )
    );
  }
}

function readyWriter(db: Db, path: string): Db {
  db.pragma("journal_mode = WAL");
  // WAL + NORMAL: a crash loses at most the last transactions, never consistency.
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  registerVerdictsDigest(db);
  registerSubjectOf(db);
  registerStoredExchange(db);
  migrate(db, path);
  db.pragma("busy_timeout = 5000");
  return db;
}

function readyReader(db: Db, path: string, options: OpenOptions): Db {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version >= 1 && version < SCHEMA_VERSION) {
    db.close();
    migrateInPlace(path, version);
    return openDb(path, options);
  }
  if (version !== SCHEMA_VERSION) {
    db.close();
    const why =
      version > SCHEMA_VERSION
        ? `is newer than this gatecheck knows (${SCHEMA_VERSION}): upgrade gatecheck`
        : "is not a gatecheck results database's (0: no schema)";
    throw new ResultsError("schema-version", `${path}: schema version ${version} ${why}`);
  }
  db.pragma("busy_timeout = 5000");
  return db;
}

/** An older database brought to this schema by a writer, for a reader to open after. */
function migrateInPlace(path: string, version: number): void {
  try {
    openDb(path).close();
  } catch (error) {
    // SQLite's own words ("database is locked"): what to do is said here.
    const why = error instanceof ResultsError && error.cause instanceof Error ? error.cause : error;
    throw new ResultsError(
      "schema-version",
      `${path}: schema version ${version}, expected ${SCHEMA_VERSION}, and it cannot be migrated here (${(why as Error).message}): copy it somewhere writable and pass that path with --db`,
      { cause: error },
    );
  }
}

function migrate(db: Db, path: string): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    db.close();
    throw new ResultsError(
      "schema-version",
      `${path}: schema version ${version} is newer than this gatecheck knows (${SCHEMA_VERSION})`,
    );
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    const sql = MIGRATIONS[v] ?? "";
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  // Version 3 moved every attempt into new tables, version 7 rewrote every exchange: give the
  // old pages back to the file system (the database would otherwise keep both sizes).
  if (version >= 1 && version < STORED_EXCHANGE_VERSION) db.exec("VACUUM");
}
