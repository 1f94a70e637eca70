/**
 * Which column of an earlier run is "the same column" as one of a later run, for `diff` and
 * the HTML history. A column is a gateway at a version with an install variant
 * (`portkey@1.15.2+locked`); two columns of one gateway in one run (`portkey@1.15.2` and
 * `portkey@1.15.2+locked`) are different things measured and never stand in for each other.
 *
 * The rule: a column matches the column of the same label. A column whose label the other
 * run lacks matches by lineage, the label without its version (`portkey+locked`), so a
 * version bump still compares, but only where that lineage names exactly one column in each
 * run, neither of which has an exact match: otherwise it matches nothing and its cells are
 * listed as new, never compared with a neighbour's.
 */
import type { GatewayRunRecord } from "./records.ts";

type ColumnRow = Pick<GatewayRunRecord, "gateway" | "version" | "column">;

/** `portkey@1.15.2+locked` → `portkey+locked`; a label that is not `gateway@version…` stays. */
export function columnLineage(row: ColumnRow): string {
  const head = `${row.gateway}@${row.version}`;
  if (row.column.startsWith(head)) return row.gateway + row.column.slice(head.length);
  return lineageOfLabel(row.column);
}

/** The lineage read from a label alone (a cell whose gateway row is missing): the version is
 * what lies between `@` and the first `+`. */
export function lineageOfLabel(column: string): string {
  const match = /^([^@]+)@[^+]*(\+.*)?$/.exec(column);
  return match ? `${match[1]}${match[2] ?? ""}` : column;
}

/** Every column a run names: its gateway rows, and labels only its cells carry. */
export function columnsOf(
  gatewayRuns: readonly ColumnRow[],
  cellColumns: Iterable<string>,
): Map<string, string> {
  const lineage = new Map<string, string>();
  for (const g of gatewayRuns) lineage.set(g.column, columnLineage(g));
  for (const column of cellColumns) {
    if (!lineage.has(column)) lineage.set(column, lineageOfLabel(column));
  }
  return lineage;
}

/**
 * For each later column, the earlier column it is compared with (absent: none). Both
 * arguments map a column label to its lineage (`columnsOf`).
 */
export function matchColumns(
  earlier: ReadonlyMap<string, string>,
  later: ReadonlyMap<string, string>,
): Map<string, string> {
  const match = new Map<string, string>();
  for (const column of later.keys()) if (earlier.has(column)) match.set(column, column);
  const unmatched = (columns: ReadonlyMap<string, string>, other: ReadonlyMap<string, string>) => {
    const byLineage = new Map<string, string[]>();
    for (const [column, lineage] of columns) {
      if (other.has(column)) continue;
      byLineage.set(lineage, [...(byLineage.get(lineage) ?? []), column]);
    }
    return byLineage;
  };
  const earlierLeft = unmatched(earlier, later);
  const laterLeft = unmatched(later, earlier);
  for (const [lineage, columns] of laterLeft) {
    const candidates = earlierLeft.get(lineage) ?? [];
    // Exactly one each side, and the lineage not also held by an exactly matched column.
    const taken = [...later].some(([c, l]) => l === lineage && earlier.has(c));
    if (columns.length === 1 && candidates.length === 1 && !taken) {
      match.set(columns[0] as string, candidates[0] as string);
    }
  }
  return match;
}
