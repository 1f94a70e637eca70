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

export function runReadOnlyQuery(db: Db, sql: string): QueryResult {
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
  try {
    return { columns, rows: stmt.raw(true).all() as unknown[][] };
  } catch (error) {
    throw new ResultsError("sql", `query failed: ${(error as Error).message}`);
  }
}

/** Rows as JSON objects (a later duplicate column name wins, as in SQLite's own JSON mode). */
export function queryResultToJson(result: QueryResult): Record<string, unknown>[] {
  return result.rows.map((row) =>
    Object.fromEntries(result.columns.map((c, i) => [c, jsonValue(row[i])])),
  );
}

function jsonValue(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return { base64: value.toString("base64") };
  if (typeof value === "bigint") return value.toString();
  return value;
}

/** A plain-text table, cells cut at `maxWidth` characters with an ellipsis. */
export function formatQueryTable(result: QueryResult, maxWidth = 60): string {
  if (result.columns.length === 0) return "(no columns)\n";
  const cell = (v: unknown): string => {
    let s: string;
    if (v === null || v === undefined) s = "NULL";
    else if (Buffer.isBuffer(v)) s = `<${v.length} bytes>`;
    else s = String(v).replace(/\s*\n\s*/g, " ");
    return s.length > maxWidth ? `${s.slice(0, maxWidth - 1)}…` : s;
  };
  const body = result.rows.map((r) => result.columns.map((_, i) => cell(r[i])));
  const widths = result.columns.map((c, i) =>
    Math.max(c.length, ...body.map((r) => (r[i] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join(" │ ")
      .trimEnd();
  const out = [
    line(result.columns),
    widths.map((w) => "─".repeat(w)).join("─┼─"),
    ...body.map(line),
    `(${result.rows.length} row${result.rows.length === 1 ? "" : "s"})`,
  ];
  return `${out.join("\n")}\n`;
}
