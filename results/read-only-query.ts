/**
 * `gatecheck query`: run one SQL statement against a results database that cannot change it.
 * Two locks: the database is opened read-only, and a statement SQLite does not call
 * read-only (`stmt.readonly`) is refused before it runs.
 */

import { ResultsError } from "./results-error.ts";
import type { Db } from "./schema.ts";

export interface QueryResult {
  columns: string[];
  /** Rows as arrays, in column order (duplicate column names stay apart). */
  rows: unknown[][];
}

/** A statement's columns and its rows, read one at a time as they are iterated. */
export interface QueryRows {
  columns: string[];
  rows: Iterable<unknown[]>;
}

/**
 * The statement, refused unless SQLite calls it read-only, with its rows as an iterator: a
 * result of 100,000 attempts is written out as it is read, never held whole.
 */
export function readOnlyQuery(db: Db, sql: string): QueryRows {
  let stmt: ReturnType<Db["prepare"]>;
  try {
    stmt = db.prepare(sql);
  } catch (error) {
    throw new ResultsError("sql", `query refused: ${(error as Error).message}`);
  }
  if (!stmt.readonly) {
    throw new ResultsError(
      "not-read-only",
      "query refused: the statement would write; `gatecheck query` only reads (use SELECT)",
    );
  }
  if (!stmt.reader) return { columns: [], rows: [] };
  const columns = stmt.columns().map((c) => c.name);
  const iterate = stmt.raw(true);
  return {
    columns,
    rows: {
      *[Symbol.iterator]() {
        try {
          yield* iterate.iterate() as IterableIterator<unknown[]>;
        } catch (error) {
          throw new ResultsError("sql", `query failed: ${(error as Error).message}`);
        }
      },
    },
  };
}

/** The whole result at once (tests, the docs' queries). */
export function runReadOnlyQuery(db: Db, sql: string): QueryResult {
  const { columns, rows } = readOnlyQuery(db, sql);
  return { columns, rows: [...rows] };
}

/** Rows as JSON objects (a later duplicate column name wins, as in SQLite's own JSON mode). */
export function queryResultToJson(result: QueryResult): Record<string, unknown>[] {
  return result.rows.map((row) => rowObject(result.columns, row));
}

function rowObject(columns: readonly string[], row: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(columns.map((c, i) => [c, jsonValue(row[i])]));
}

function jsonValue(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return { base64: value.toString("base64") };
  if (typeof value === "bigint") return value.toString();
  return value;
}

/** Rows of a result as JSON text, in pieces: the same text as `JSON.stringify(rows, null, 2)`. */
export function* queryJsonChunks(result: QueryRows): Generator<string> {
  let first = true;
  for (const row of result.rows) {
    const text = JSON.stringify(rowObject(result.columns, row), null, 2).replaceAll("\n", "\n  ");
    yield `${first ? "[\n" : ",\n"}  ${text}`;
    first = false;
  }
  yield first ? "[]\n" : "\n]\n";
}

/** Rows whose widths set the table's columns; later rows are cut to those widths. */
const WIDTH_SAMPLE_ROWS = 1000;

/**
 * A plain-text table in pieces, cells cut at `maxWidth` characters with an ellipsis. The
 * column widths come from the first 1,000 rows, so a longer result streams: a later value
 * wider than its column is cut to it (`--json` keeps every value whole).
 */
export function* queryTableChunks(result: QueryRows, maxWidth = 60): Generator<string> {
  if (result.columns.length === 0) {
    yield "(no columns)\n";
    return;
  }
  const cell = (v: unknown, width: number): string => {
    let s: string;
    if (v === null || v === undefined) s = "NULL";
    else if (Buffer.isBuffer(v)) s = `<${v.length} bytes>`;
    else s = String(v).replace(/\s*\n\s*/g, " ");
    return s.length > width ? `${s.slice(0, width - 1)}…` : s;
  };
  const rows = result.rows[Symbol.iterator]();
  const sample: string[][] = [];
  for (let next = rows.next(); !next.done; next = rows.next()) {
    sample.push(result.columns.map((_, i) => cell(next.value[i], maxWidth)));
    if (sample.length === WIDTH_SAMPLE_ROWS) break;
  }
  const widths = result.columns.map((c, i) =>
    Math.max(c.length, ...sample.map((r) => (r[i] ?? "").length)),
  );
  const line = (cells: string[]) =>
    `${cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join(" │ ")
      .trimEnd()}\n`;
  yield line(result.columns);
  yield `${widths.map((w) => "─".repeat(w)).join("─┼─")}\n`;
  for (const cells of sample) yield line(cells);
  let count = sample.length;
  for (let next = rows.next(); !next.done; next = rows.next()) {
    yield line(result.columns.map((_, i) => cell(next.value[i], Math.max(1, widths[i] ?? 1))));
    count++;
  }
  yield `(${count} row${count === 1 ? "" : "s"})\n`;
}

/** The whole table as one text (see `queryTableChunks`). */
export function formatQueryTable(result: QueryRows, maxWidth = 60): string {
  return [...queryTableChunks(result, maxWidth)].join("");
}
