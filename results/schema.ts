/**
 * The results database's schema, versioned with SQLite's `user_version`: migration i (0-based)
 * takes the database from version i to i+1. A migration is never edited once shipped; a
 * change is a new entry at the end. docs/results.md describes every column.
 */
import Database from "better-sqlite3";
import { ResultsError } from "./results-error.ts";

export type Db = Database.Database;

export const MIGRATIONS: readonly string[] = [
  // 1: the first schema.
  `
  CREATE TABLE runs (
    id                TEXT PRIMARY KEY,
    started_at        TEXT NOT NULL,
    finished_at       TEXT,
    status            TEXT NOT NULL CHECK (status IN ('running', 'done', 'interrupted')),
    gatecheck_version TEXT NOT NULL,
    git_sha           TEXT,
    args              TEXT NOT NULL,
    shard             TEXT
  );
  CREATE TABLE gateway_runs (
    run_id   TEXT NOT NULL REFERENCES runs(id),
    gateway  TEXT NOT NULL,
    version  TEXT NOT NULL,
    "column" TEXT NOT NULL,
    status   TEXT NOT NULL CHECK (status IN ('ok', 'not-run', 'error')),
    reason   TEXT,
    log_path TEXT,
    PRIMARY KEY (run_id, "column")
  );
  CREATE TABLE probes (
    probe_id        TEXT NOT NULL,
    definition_hash TEXT NOT NULL,
    client_dialect  TEXT NOT NULL,
    axis            TEXT NOT NULL,
    field           TEXT NOT NULL,
    severity        TEXT NOT NULL,
    definition      TEXT NOT NULL,
    PRIMARY KEY (probe_id, definition_hash)
  );
  CREATE TABLE cells (
    run_id          TEXT NOT NULL REFERENCES runs(id),
    "column"        TEXT NOT NULL,
    route_id        TEXT NOT NULL,
    client_dialect  TEXT NOT NULL,
    backend_dialect TEXT NOT NULL,
    probe_id        TEXT NOT NULL,
    definition_hash TEXT NOT NULL,
    mode            TEXT NOT NULL CHECK (mode IN ('stream', 'non-stream')),
    verdict         TEXT NOT NULL,
    reason          TEXT NOT NULL,
    cause           TEXT,
    runs            INTEGER NOT NULL,
    counts          TEXT NOT NULL,
    determinism     INTEGER NOT NULL,
    stable          INTEGER NOT NULL CHECK (stable IN (0, 1)),
    control_verdict TEXT,
    known_issue     TEXT,
    UNIQUE (run_id, "column", route_id, probe_id, mode)
  );
  CREATE INDEX cells_probe ON cells (probe_id, definition_hash);
  CREATE TABLE attempts (
    run_id          TEXT NOT NULL REFERENCES runs(id),
    "column"        TEXT NOT NULL,
    route_id        TEXT NOT NULL,
    probe_id        TEXT NOT NULL,
    mode            TEXT NOT NULL,
    phase           TEXT NOT NULL CHECK (phase IN ('main', 'repeat', 'control')),
    attempt_no      INTEGER NOT NULL,
    status          TEXT NOT NULL,
    timings         TEXT NOT NULL,
    client_request  TEXT NOT NULL,
    forwarded       TEXT NOT NULL,
    upstream_reply  TEXT NOT NULL,
    client_response TEXT NOT NULL,
    verdicts        TEXT NOT NULL,
    UNIQUE (run_id, "column", route_id, probe_id, mode, phase, attempt_no)
  );
  `,
  // 2: what the official SDK of the client dialect made of each client response.
  `
  ALTER TABLE attempts ADD COLUMN client_sdk TEXT;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export interface OpenOptions {
  readonly?: boolean;
  /** Create the file when missing (writers); readers want a clear error instead. */
  create?: boolean;
}

/**
 * Open a results database, applying pending migrations when writable. A read-only open of a
 * database whose schema is older or newer than this code is an error, never a guess.
 */
export function openDb(path: string, options: OpenOptions = {}): Db {
  const readonly = options.readonly ?? false;
  let db: Db;
  try {
    db = new Database(path, { readonly, fileMustExist: readonly || !options.create });
  } catch (error) {
    throw new ResultsError(
      "db-open",
      `cannot open results database ${path}: ${(error as Error).message}`,
    );
  }
  if (!readonly) {
    db.pragma("journal_mode = WAL");
    // WAL + NORMAL: a crash loses at most the last transactions, never consistency.
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    migrate(db, path);
  } else {
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version !== SCHEMA_VERSION) {
      db.close();
      throw new ResultsError(
        "schema-version",
        `${path}: schema version ${version}, expected ${SCHEMA_VERSION} (open it once with a writer to migrate)`,
      );
    }
  }
  db.pragma("busy_timeout = 5000");
  return db;
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
}
