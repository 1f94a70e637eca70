/**
 * `gatecheck merge OUT.db IN.db...`: shards of one sweep, or several machines' runs, into one
 * database. A run id found in several inputs becomes one run (earliest start, latest finish,
 * shards joined; all n shards of n make a whole run with no shard). A cell found twice must
 * be identical, with identical attempts, and so must an agent loop; otherwise the merge
 * stops, names them, and OUT is left exactly as it was (one transaction).
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { LOOP_COLUMNS, LOOP_KEY_COLUMNS } from "./loop-records.ts";
import { ResultsError } from "./results-error.ts";
import {
  ATTEMPT_COLUMNS,
  ATTEMPT_KEY_COLUMNS,
  CELL_COLUMNS,
  CELL_KEY_COLUMNS,
  EXCHANGE_COLUMNS,
  GATEWAY_RUN_COLUMNS,
  PROBE_COLUMNS,
  quoted,
  RUN_COLUMNS,
} from "./row-mapping.ts";
import { requireRunId } from "./run-id.ts";
import { type Db, openDb } from "./schema.ts";

export interface MergeReport {
  inputs: number;
  runs: string[];
  cellsAdded: number;
  cellsAlreadyPresent: number;
  attemptsAdded: number;
  /** Agent loops (the `loops` table) added; one already present is skipped. */
  loopsAdded: number;
}

const MAX_NAMED = 10;

/** SQLite's default limit on attached databases (better-sqlite3 keeps it at 10). */
const MAX_ATTACHED = 10;

export function mergeDatabases(outPath: string, inPaths: readonly string[]): MergeReport {
  if (inPaths.length <= MAX_ATTACHED) return mergeInOneTransaction(outPath, inPaths);
  // Every input checked before the staging copy is made.
  for (const p of inPaths) checkInput(p, outPath);
  // Too many inputs to attach at once: merge chunk by chunk into a staging copy, and replace
  // OUT only when every chunk merged, so a conflict still leaves OUT as it was.
  const staging = `${outPath}.merging-${process.pid}`;
  rmSync(staging, { force: true });
  if (existsSync(outPath)) {
    const db = openDb(outPath);
    db.prepare("VACUUM INTO ?").run(staging);
    db.close();
  }
  const total: MergeReport = {
    inputs: 0,
    runs: [],
    cellsAdded: 0,
    cellsAlreadyPresent: 0,
    attemptsAdded: 0,
    loopsAdded: 0,
  };
  try {
    for (let i = 0; i < inPaths.length; i += MAX_ATTACHED) {
      const part = mergeInOneTransaction(staging, inPaths.slice(i, i + MAX_ATTACHED), outPath);
      total.inputs += part.inputs;
      total.runs = [...new Set([...total.runs, ...part.runs])].sort();
      total.cellsAdded += part.cellsAdded;
      total.cellsAlreadyPresent += part.cellsAlreadyPresent;
      total.attemptsAdded += part.attemptsAdded;
      total.loopsAdded += part.loopsAdded;
    }
    renameSync(staging, outPath);
  } finally {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${staging}${suffix}`, { force: true });
  }
  return total;
}

function mergeInOneTransaction(
  outPath: string,
  inPaths: readonly string[],
  shownOut: string = outPath,
): MergeReport {
  if (inPaths.length === 0)
    throw new ResultsError("merge-conflict", "merge needs at least one input database");
  for (const p of inPaths) checkInput(p, shownOut);
  const db = openDb(outPath, { create: true });
  const report: MergeReport = {
    inputs: inPaths.length,
    runs: [],
    cellsAdded: 0,
    cellsAlreadyPresent: 0,
    attemptsAdded: 0,
    loopsAdded: 0,
  };
  const runs = new Set<string>();
  try {
    // SQLite cannot ATTACH inside a transaction, and the merge must be one transaction so a
    // conflict in the last input leaves OUT untouched: attach every input first.
    inPaths.forEach((p, i) => {
      db.prepare(`ATTACH DATABASE ? AS src${i}`).run(p);
    });
    db.transaction(() => {
      inPaths.forEach((p, i) => {
        mergeOne(db, `src${i}`, p, report, runs);
      });
    })();
  } catch (error) {
    if (error instanceof ResultsError) throw error;
    throw new ResultsError(
      "merge-conflict",
      `merge into ${shownOut} failed, nothing was merged: ${(error as Error).message}`,
    );
  } finally {
    db.close();
  }
  report.runs = [...runs].sort();
  return report;
}

type Row = Record<string, unknown>;

/**
 * An input, before anything is written: not the output, a gatecheck database of this schema,
 * and every run id it holds a run id (one names a folder that `prune` deletes: run-id.ts).
 */
function checkInput(path: string, outPath: string): void {
  if (resolve(path) === resolve(outPath))
    throw new ResultsError("merge-conflict", `${path} is both an input and the output`);
  const input = openDb(path, { readonly: true });
  try {
    const ids = input
      .prepare(
        `SELECT id FROM runs UNION SELECT run_id FROM gateway_runs UNION SELECT run_id FROM cells
         UNION SELECT run_id FROM judgements UNION SELECT run_id FROM loops`,
      )
      .pluck()
      .all() as unknown[];
    for (const id of ids) {
      requireRunId(String(id), `merge input ${path}`, "; nothing was merged");
    }
  } finally {
    input.close();
  }
}

function mergeOne(db: Db, src: string, path: string, report: MergeReport, runs: Set<string>): void {
  for (const row of db.prepare(`SELECT ${quoted(RUN_COLUMNS)} FROM ${src}.runs`).all() as Row[]) {
    runs.add(String(row.id));
    const existing = db
      .prepare(`SELECT ${quoted(RUN_COLUMNS)} FROM main.runs WHERE id = ?`)
      .get(row.id) as Row | undefined;
    if (!existing) {
      db.prepare(
        `INSERT INTO main.runs (${quoted(RUN_COLUMNS)}) VALUES (${RUN_COLUMNS.map((c) => `@${c}`).join(", ")})`,
      ).run(row);
    } else {
      db.prepare(
        "UPDATE main.runs SET started_at = @started_at, finished_at = @finished_at, status = @status, shard = @shard WHERE id = @id",
      ).run(mergeRunRows(existing, row));
    }
  }
  mergeGatewayRuns(db, src, path);
  db.exec(
    `INSERT OR IGNORE INTO main.probes (${quoted(PROBE_COLUMNS)}) SELECT ${quoted(PROBE_COLUMNS)} FROM ${src}.probes`,
  );

  const keyMatch = CELL_KEY_COLUMNS.map((c) => `m."${c}" = s."${c}"`).join(" AND ");
  const cellValues = CELL_COLUMNS.filter(
    (c) => !(CELL_KEY_COLUMNS as readonly string[]).includes(c),
  );
  const valueDiffers = cellValues.map((c) => `m."${c}" IS NOT s."${c}"`).join(" OR ");
  // Which columns differ, so the error says more than "verdict preserved, preserved".
  const differing = cellValues
    .map((c) => `CASE WHEN m."${c}" IS NOT s."${c}" THEN '${c} ' ELSE '' END`)
    .join(" || ");
  const conflicts = db
    .prepare(`SELECT s.run_id, s."column", s.route_id, s.probe_id, s.mode, m.verdict AS a, s.verdict AS b,
      rtrim(${differing}) AS differing
      FROM ${src}.cells s JOIN main.cells m ON ${keyMatch} WHERE ${valueDiffers}`)
    .all() as Row[];
  if (conflicts.length > 0) throw conflictError(path, "cell", conflicts);

  const attemptKey: readonly string[] = ATTEMPT_KEY_COLUMNS;
  const attemptMatch = attemptKey.map((c) => `m."${c}" = s."${c}"`).join(" AND ");
  const attemptDiffers = ATTEMPT_COLUMNS.filter((c) => !attemptKey.includes(c))
    .map((c) => `m."${c}" IS NOT s."${c}"`)
    .join(" OR ");
  const attemptConflicts = db
    .prepare(`SELECT s.run_id, s."column", s.route_id, s.probe_id, s.mode, s.phase || ' #' || s.attempt_no AS a, '' AS b
      FROM ${src}.attempts s JOIN main.attempts m ON ${attemptMatch} WHERE ${attemptDiffers}`)
    .all() as Row[];
  if (attemptConflicts.length > 0) throw conflictError(path, "attempt", attemptConflicts);

  const cells = db
    .prepare(
      `INSERT OR IGNORE INTO main.cells (${quoted(CELL_COLUMNS)}) SELECT ${quoted(CELL_COLUMNS)} FROM ${src}.cells`,
    )
    .run();
  const total = (db.prepare(`SELECT count(*) AS n FROM ${src}.cells`).get() as { n: number }).n;
  report.cellsAdded += cells.changes;
  report.cellsAlreadyPresent += total - cells.changes;
  // An attempt already in OUT is identical (checked above) and skipped. The others' exchanges
  // are copied under ids past OUT's largest, so a run and its rescore still share theirs;
  // their verdict lists are found in OUT by digest, or added.
  const newJudgements = `FROM ${src}.judgements s
    WHERE NOT EXISTS (SELECT 1 FROM main.judgements m WHERE ${attemptMatch})`;
  const offset = db
    .prepare("SELECT coalesce(max(id), 0) FROM main.exchanges")
    .pluck()
    .get() as number;
  db.prepare(
    `INSERT INTO main.exchanges (id, ${quoted(EXCHANGE_COLUMNS)})
     SELECT id + ?, ${quoted(EXCHANGE_COLUMNS)} FROM ${src}.exchanges
     WHERE id IN (SELECT s.exchange_id ${newJudgements})`,
  ).run(offset);
  db.prepare(
    `INSERT OR IGNORE INTO main.verdict_lists (digest, verdicts)
     SELECT digest, verdicts FROM ${src}.verdict_lists
     WHERE id IN (SELECT s.verdicts_id ${newJudgements})`,
  ).run();
  const attempts = db
    .prepare(
      `INSERT INTO main.judgements (${quoted(ATTEMPT_KEY_COLUMNS)}, verdicts_id, exchange_id)
       SELECT ${ATTEMPT_KEY_COLUMNS.map((c) => `s."${c}"`).join(", ")},
         (SELECT v.id FROM main.verdict_lists v
          WHERE v.digest = (SELECT digest FROM ${src}.verdict_lists WHERE id = s.verdicts_id)),
         s.exchange_id + ? ${newJudgements}`,
    )
    .run(offset);
  report.attemptsAdded += attempts.changes;
  report.loopsAdded += mergeLoops(db, src, path);
}

/** The input's agent loops: one found twice must be identical, as a cell must. */
function mergeLoops(db: Db, src: string, path: string): number {
  const key: readonly string[] = LOOP_KEY_COLUMNS;
  const match = key.map((c) => `m."${c}" = s."${c}"`).join(" AND ");
  const differs = LOOP_COLUMNS.filter((c) => !key.includes(c))
    .map((c) => `m."${c}" IS NOT s."${c}"`)
    .join(" OR ");
  const conflicts = db
    .prepare(`SELECT s.run_id, s."column", s.route_id, s.variant AS probe_id, 'loop' AS mode,
      m.status AS a, s.status AS b, '' AS differing
      FROM ${src}.loops s JOIN main.loops m ON ${match} WHERE ${differs}
      ORDER BY s.run_id, s."column", s.route_id, s.variant`)
    .all() as Row[];
  if (conflicts.length > 0) throw conflictError(path, "loop", conflicts);
  return db
    .prepare(
      `INSERT OR IGNORE INTO main.loops (${quoted(LOOP_COLUMNS)}) SELECT ${quoted(LOOP_COLUMNS)} FROM ${src}.loops`,
    )
    .run().changes;
}

function conflictError(path: string, what: string, rows: Row[]): ResultsError {
  const named = rows.slice(0, MAX_NAMED).map((r) => {
    const detail =
      what === "cell"
        ? `${r.a} here, ${r.b} in ${path} (differs in ${String(r.differing).split(" ").join(", ")})`
        : what === "loop"
          ? `${r.a} here, ${r.b} in ${path}`
          : `${r.a} differs`;
    return `  run ${r.run_id}: ${r.column} | ${r.route_id} | ${r.probe_id} | ${r.mode}: ${detail}`;
  });
  const more = rows.length > MAX_NAMED ? [`  ... and ${rows.length - MAX_NAMED} more`] : [];
  return new ResultsError(
    "merge-conflict",
    [
      `${path}: ${rows.length} conflicting duplicate ${what}(s); nothing was merged:`,
      ...named,
      ...more,
    ].join("\n"),
  );
}

function mergeGatewayRuns(db: Db, src: string, path: string): void {
  const rows = db
    .prepare(`SELECT ${quoted(GATEWAY_RUN_COLUMNS)} FROM ${src}.gateway_runs`)
    .all() as Row[];
  for (const row of rows) {
    const existing = db
      .prepare(
        `SELECT ${quoted(GATEWAY_RUN_COLUMNS)} FROM main.gateway_runs WHERE run_id = ? AND "column" = ?`,
      )
      .get(row.run_id, row.column) as Row | undefined;
    if (!existing) {
      db.prepare(
        `INSERT INTO main.gateway_runs (${quoted(GATEWAY_RUN_COLUMNS)}) VALUES (${GATEWAY_RUN_COLUMNS.map((c) => `@${c}`).join(", ")})`,
      ).run(row);
      continue;
    }
    if (existing.gateway !== row.gateway || existing.version !== row.version) {
      throw new ResultsError(
        "merge-conflict",
        `${path}: run ${row.run_id} column ${row.column} is ${row.gateway}@${row.version} there but ${existing.gateway}@${existing.version} here; nothing was merged`,
      );
    }
    if (existing.status === row.status && existing.reason === row.reason) continue;
    // One shard's trouble is the run's trouble: error outranks ok, ok outranks not-run.
    const rank = { error: 2, ok: 1, "not-run": 0 } as Record<string, number>;
    const status =
      (rank[String(row.status)] ?? 0) > (rank[String(existing.status)] ?? 0)
        ? row.status
        : existing.status;
    const reasons = [existing.reason, row.reason].filter((r) => r !== null && r !== undefined);
    db.prepare(
      `UPDATE main.gateway_runs SET status = ?, reason = ?, log_path = coalesce(log_path, ?) WHERE run_id = ? AND "column" = ?`,
    ).run(
      status,
      reasons.length > 0 ? [...new Set(reasons)].join("; ") : null,
      row.log_path,
      row.run_id,
      row.column,
    );
  }
}

function mergeRunRows(a: Row, b: Row): Row {
  const minStr = (x: unknown, y: unknown) => (String(x) <= String(y) ? x : y);
  const finished =
    a.finished_at && b.finished_at
      ? String(a.finished_at) >= String(b.finished_at)
        ? a.finished_at
        : b.finished_at
      : null;
  const statuses = new Set([a.status, b.status]);
  const status = statuses.has("running")
    ? "running"
    : statuses.has("interrupted")
      ? "interrupted"
      : "done";
  return {
    id: a.id,
    started_at: minStr(a.started_at, b.started_at),
    finished_at: status === "running" ? null : finished,
    status,
    shard: mergeShards(a.shard, b.shard),
  };
}

/** `1/3` + `2/3` → `1/3,2/3`; all of 1..n of n → null (a whole sweep). A whole run stays whole. */
export function mergeShards(a: unknown, b: unknown): string | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  const parts = new Set([...String(a).split(","), ...String(b).split(",")].filter(Boolean));
  const parsed = [...parts].map((p) => /^(\d+)\/(\d+)$/.exec(p));
  const n = parsed[0]?.[2];
  if (n && parsed.every((m) => m && m[2] === n) && parts.size === Number(n)) return null;
  const sorted = [...parts].sort(
    (x, y) => Number.parseInt(x, 10) - Number.parseInt(y, 10) || x.localeCompare(y),
  );
  return sorted.join(",");
}
