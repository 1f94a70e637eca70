import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { ResultsError } from "./results-error.ts";
import { isSqliteError, storageError, storageFaultOf } from "./storage-failure.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-storage-failure-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sqliteError(code: string): Error {
  return Object.assign(new Error(code.toLowerCase()), { name: "SqliteError", code });
}

function errno(code: string): Error {
  return Object.assign(new Error(`${code}: failed`), { code });
}

describe("storage failures", () => {
  it("reads SQLite's primary and extended codes, and the errno of a file write", () => {
    expect(storageFaultOf(sqliteError("SQLITE_FULL"))).toBe("full");
    expect(storageFaultOf(sqliteError("SQLITE_IOERR_WRITE"))).toBe("io");
    expect(storageFaultOf(sqliteError("SQLITE_READONLY_DBMOVED"))).toBe("read-only");
    expect(storageFaultOf(sqliteError("SQLITE_BUSY_SNAPSHOT"))).toBe("locked");
    expect(storageFaultOf(sqliteError("SQLITE_NOTADB"))).toBe("not-a-database");
    expect(storageFaultOf(errno("ENOSPC"))).toBe("full");
    expect(storageFaultOf(errno("EROFS"))).toBe("read-only");
  });

  it("finds one behind a wrapping error's cause, and nothing in other errors", () => {
    const wrapped = new ResultsError("bad-record", "cell x", { cause: sqliteError("SQLITE_FULL") });
    expect(storageFaultOf(wrapped)).toBe("full");
    expect(storageFaultOf(sqliteError("SQLITE_ERROR"))).toBeUndefined(); // an SQL mistake
    expect(storageFaultOf(sqliteError("SQLITE_CONSTRAINT_UNIQUE"))).toBeUndefined();
    expect(storageFaultOf(errno("ENOENT"))).toBeUndefined();
    expect(storageFaultOf(new Error("x"))).toBeUndefined();
    expect(storageFaultOf("SQLITE_FULL")).toBeUndefined();
  });

  it("says the file, what happened, what to do, and keeps the cause", () => {
    const cause = sqliteError("SQLITE_FULL");
    const error = storageError(cause, "r.db");
    expect(error?.code).toBe("storage");
    expect(error?.message).toBe(
      "r.db: the disk (or the file system holding it) is full (sqlite_full); free some space and run again",
    );
    expect(error?.cause).toBe(cause);
    expect(storageError(cause, "r.db", "db-open")?.message).toMatch(
      /^cannot open results database r\.db: /,
    );
    expect(storageError(new Error("x"), "r.db")).toBeUndefined();
  });

  it("knows better-sqlite3's errors by shape", () => {
    const db = new Database(join(dir, "a.db"));
    try {
      db.exec("SELECT * FROM no_such_table");
    } catch (error) {
      expect(isSqliteError(error)).toBe(true);
    } finally {
      db.close();
    }
    expect.assertions(1);
  });
});
