/**
 * Agent loops in the results database (the `loops` table, schema migration 6): one row per
 * column, route and loop variant. Written by the sweep's loop phase (loops/loop-phase.ts),
 * read by the views (the matrix's "agent loops" section, the JSON summary, JUnit).
 */
import { quoted } from "./row-mapping.ts";
import type { Db } from "./schema.ts";

export interface LoopRecord {
  runId: string;
  column: string;
  routeId: string;
  variant: string;
  client: string;
  backend: string;
  persona?: string;
  status: "completed" | "broke" | "not-run";
  turn?: number;
  cause?: string;
  /** Why it broke (or was not run), in words a reader checks against the evidence. */
  reason?: string;
  /** Cross-turn losses that did not break the loop. */
  losses: string[];
  nonce?: string;
  totalMs?: number;
  /** The agent's exchanges and what reached the backend, redacted, as JSON text. */
  evidence?: string;
}

/** The table's columns, as `merge` and `rescore` copy them. */
export const LOOP_COLUMNS = [
  "run_id",
  "column",
  "route_id",
  "variant",
  "client",
  "backend",
  "persona",
  "status",
  "turn",
  "cause",
  "reason",
  "losses",
  "nonce",
  "total_ms",
  "evidence",
] as const;

/** The columns that name one loop (the table's primary key). */
export const LOOP_KEY_COLUMNS = ["run_id", "column", "route_id", "variant"] as const;

interface LoopRow {
  run_id: string;
  column: string;
  route_id: string;
  variant: string;
  client: string;
  backend: string;
  persona: string | null;
  status: LoopRecord["status"];
  turn: number | null;
  cause: string | null;
  reason: string | null;
  losses: string;
  nonce: string | null;
  total_ms: number | null;
  evidence: string | null;
}

export function putLoop(db: Db, loop: LoopRecord): void {
  db.prepare(
    `INSERT OR REPLACE INTO loops (run_id, "column", route_id, variant, client, backend, persona,
       status, turn, cause, reason, losses, nonce, total_ms, evidence)
     VALUES (@run_id, @column, @route_id, @variant, @client, @backend, @persona,
       @status, @turn, @cause, @reason, @losses, @nonce, @total_ms, @evidence)`,
  ).run({
    run_id: loop.runId,
    column: loop.column,
    route_id: loop.routeId,
    variant: loop.variant,
    client: loop.client,
    backend: loop.backend,
    persona: loop.persona ?? null,
    status: loop.status,
    turn: loop.turn ?? null,
    cause: loop.cause ?? null,
    reason: loop.reason ?? null,
    losses: JSON.stringify(loop.losses),
    nonce: loop.nonce ?? null,
    total_ms: loop.totalMs ?? null,
    evidence: loop.evidence ?? null,
  } satisfies LoopRow);
}

function fromRow(row: LoopRow, withEvidence: boolean): LoopRecord {
  return {
    runId: row.run_id,
    column: row.column,
    routeId: row.route_id,
    variant: row.variant,
    client: row.client,
    backend: row.backend,
    ...(row.persona !== null ? { persona: row.persona } : {}),
    status: row.status,
    ...(row.turn !== null ? { turn: row.turn } : {}),
    ...(row.cause !== null ? { cause: row.cause } : {}),
    ...(row.reason !== null ? { reason: row.reason } : {}),
    losses: JSON.parse(row.losses) as string[],
    ...(row.nonce !== null ? { nonce: row.nonce } : {}),
    ...(row.total_ms !== null ? { totalMs: row.total_ms } : {}),
    ...(withEvidence && row.evidence !== null ? { evidence: row.evidence } : {}),
  };
}

/** A run's loops in column, route and variant order; evidence only when asked for. */
export function loopsOfRun(db: Db, runId: string, withEvidence = false): LoopRecord[] {
  const rows = db
    .prepare(
      `SELECT run_id, "column", route_id, variant, client, backend, persona, status, turn,
              cause, reason, losses, nonce, total_ms${withEvidence ? ", evidence" : ", NULL AS evidence"}
         FROM loops WHERE run_id = ? ORDER BY "column", route_id, variant`,
    )
    .all(runId) as LoopRow[];
  return rows.map((row) => fromRow(row, withEvidence));
}

/** Keys of the loops a run already has (resume runs the rest, and the not-run ones). */
export function doneLoopKeys(db: Db, runId: string): Set<string> {
  const rows = db
    .prepare(
      `SELECT "column", route_id, variant FROM loops WHERE run_id = ? AND status <> 'not-run'`,
    )
    .all(runId) as { column: string; route_id: string; variant: string }[];
  return new Set(rows.map((r) => loopKey(r.column, r.route_id, r.variant)));
}

/**
 * A run's loops copied under another run id (a rescore carries its source's loops: the loop
 * judge is not the lens, and what each SDK made of a reply is not stored to judge again).
 */
export function copyLoops(db: Db, fromRun: string, toRun: string): number {
  const rest = quoted(LOOP_COLUMNS.filter((c) => c !== "run_id"));
  return db
    .prepare(`INSERT INTO loops (run_id, ${rest}) SELECT ?, ${rest} FROM loops WHERE run_id = ?`)
    .run(toRun, fromRun).changes;
}

export function loopKey(column: string, routeId: string, variant: string): string {
  return `${column}|${routeId}|${variant}`;
}
