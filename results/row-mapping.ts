/**
 * SQL rows <-> records. The column lists live here once so the writer, the readers and
 * `merge` agree on them.
 */
import type { ClientDialect, Dialect, Mode } from "../dialects/dialect.ts";
import type { Cause } from "../probes/causes.ts";
import type { Subject } from "../probes/subject.ts";
import { VERDICTS, type VerdictKind } from "../probes/verdict.ts";
import type {
  AttemptPhase,
  AttemptRecord,
  AttemptText,
  CellRecord,
  ExchangeTexts,
  GatewayRunRecord,
  GatewayRunStatus,
  JudgementRef,
  ProbeRecord,
  RunRecord,
  RunStatus,
} from "./records.ts";
import { ResultsError } from "./results-error.ts";
import { requireRunId } from "./run-id.ts";
import { storedExchange } from "./stored-exchange.ts";
import { parseVerdictList } from "./verdict-lists.ts";

export const RUN_COLUMNS = [
  "id",
  "started_at",
  "finished_at",
  "status",
  "gatecheck_version",
  "git_sha",
  "args",
  "shard",
] as const;

export const GATEWAY_RUN_COLUMNS = [
  "run_id",
  "gateway",
  "version",
  "column",
  "status",
  "reason",
  "log_path",
] as const;

export const PROBE_COLUMNS = [
  "probe_id",
  "definition_hash",
  "client_dialect",
  "axis",
  "field",
  "severity",
  "definition",
  "subject",
] as const;

export const CELL_KEY_COLUMNS = ["run_id", "column", "route_id", "probe_id", "mode"] as const;

export const CELL_COLUMNS = [
  ...CELL_KEY_COLUMNS,
  "client_dialect",
  "backend_dialect",
  "definition_hash",
  "verdict",
  "reason",
  "cause",
  "runs",
  "counts",
  "determinism",
  "stable",
  "control_verdict",
  "known_issue",
  "subject",
] as const;

export const ATTEMPT_COLUMNS = [
  ...CELL_KEY_COLUMNS,
  "phase",
  "attempt_no",
  "status",
  "timings",
  "exchange",
  "verdicts",
  "client_sdk",
] as const;

/** The recorded half of an attempt (schema version 3 stores it once, in `exchanges`). */
export const EXCHANGE_COLUMNS = [
  "status",
  "timings",
  "exchange",
  "client_sdk",
] as const satisfies readonly (typeof ATTEMPT_COLUMNS)[number][];

/** An attempt's place in its run: the key of a `judgements` row (with its two ids). */
export const ATTEMPT_KEY_COLUMNS = [...CELL_KEY_COLUMNS, "phase", "attempt_no"] as const;

type Row = Record<string, unknown>;

/** `"column"` is an SQL keyword; every column name is quoted the same way. */
export function quoted(columns: readonly string[]): string {
  return columns.map((c) => `"${c}"`).join(", ");
}

export function placeholders(columns: readonly string[]): string {
  return columns.map((c) => `@${c}`).join(", ");
}

const str = (v: unknown): string => String(v);
const optStr = (v: unknown): string | undefined =>
  v === null || v === undefined ? undefined : String(v);
const json = (v: unknown): unknown => JSON.parse(String(v));

/**
 * A verdict column's value, checked: every view indexes tables by verdict, so a value outside
 * the vocabulary (a bug in a writer, a foreign database) is an error naming the row, not NaN.
 */
export function verdictOf(value: unknown, where: string): VerdictKind {
  if (typeof value === "string" && (VERDICTS as readonly string[]).includes(value)) {
    return value as VerdictKind;
  }
  throw new ResultsError(
    "bad-record",
    `${where}: verdict ${JSON.stringify(value)} is not one of ${VERDICTS.join(", ")}`,
  );
}

const cellWhere = (row: Row) =>
  `cell ${String(row.column)} | ${String(row.route_id)} | ${String(row.probe_id)} | ${String(row.mode)} in run ${String(row.run_id)}`;

const attemptWhere = (row: Row) =>
  `${String(row.phase)} attempt ${String(row.attempt_no)} of ${cellWhere(row)}`;

export function runToRow(r: RunRecord): Row {
  return {
    id: r.id,
    started_at: r.startedAt,
    finished_at: r.finishedAt ?? null,
    status: r.status,
    gatecheck_version: r.gatecheckVersion,
    git_sha: r.gitSha ?? null,
    args: JSON.stringify(r.args ?? null),
    shard: r.shard ?? null,
  };
}

/** A run row's id is checked as any run id coming in: a folder is named after it. */
export function rowToRun(row: Row): RunRecord {
  return {
    id: requireRunId(str(row.id), "a run in the database"),
    startedAt: str(row.started_at),
    finishedAt: optStr(row.finished_at),
    status: str(row.status) as RunStatus,
    gatecheckVersion: str(row.gatecheck_version),
    gitSha: optStr(row.git_sha),
    args: json(row.args),
    shard: optStr(row.shard),
  };
}

export function gatewayRunToRow(g: GatewayRunRecord): Row {
  return {
    run_id: g.runId,
    gateway: g.gateway,
    version: g.version,
    column: g.column,
    status: g.status,
    reason: g.reason ?? null,
    log_path: g.logPath ?? null,
  };
}

export function rowToGatewayRun(row: Row): GatewayRunRecord {
  return {
    runId: str(row.run_id),
    gateway: str(row.gateway),
    version: str(row.version),
    column: str(row.column),
    status: str(row.status) as GatewayRunStatus,
    reason: optStr(row.reason),
    logPath: optStr(row.log_path),
  };
}

export function probeToRow(p: ProbeRecord): Row {
  return {
    probe_id: p.probeId,
    definition_hash: p.definitionHash,
    client_dialect: p.clientDialect,
    axis: p.axis,
    field: p.field,
    severity: p.severity,
    definition: JSON.stringify(p.definition ?? null),
    subject: p.subject,
  };
}

export function rowToProbe(row: Row): ProbeRecord {
  return {
    probeId: str(row.probe_id),
    definitionHash: str(row.definition_hash),
    clientDialect: str(row.client_dialect) as ClientDialect,
    axis: str(row.axis),
    field: str(row.field),
    severity: str(row.severity),
    definition: json(row.definition),
    subject: str(row.subject) as Subject,
  };
}

export function cellToRow(c: CellRecord): Row {
  const where = `cell ${c.column} | ${c.routeId} | ${c.probeId} | ${c.mode} in run ${c.runId}`;
  verdictOf(c.verdict, where);
  if (c.controlVerdict !== undefined) verdictOf(c.controlVerdict, `${where} (control)`);
  for (const key of Object.keys(c.counts)) verdictOf(key, `${where} (counts)`);
  return {
    run_id: c.runId,
    column: c.column,
    route_id: c.routeId,
    probe_id: c.probeId,
    mode: c.mode,
    client_dialect: c.clientDialect,
    backend_dialect: c.backendDialect,
    definition_hash: c.definitionHash,
    verdict: c.verdict,
    reason: c.reason,
    cause: c.cause ?? null,
    runs: c.runs,
    counts: JSON.stringify(c.counts),
    determinism: c.determinism,
    stable: c.stable ? 1 : 0,
    control_verdict: c.controlVerdict ?? null,
    known_issue: c.knownIssue ?? null,
    subject: c.subject,
  };
}

export function rowToCell(row: Row): CellRecord {
  return {
    runId: str(row.run_id),
    column: str(row.column),
    routeId: str(row.route_id),
    probeId: str(row.probe_id),
    mode: str(row.mode) as Mode,
    clientDialect: str(row.client_dialect) as ClientDialect,
    backendDialect: str(row.backend_dialect) as Dialect,
    definitionHash: str(row.definition_hash),
    subject: str(row.subject) as Subject,
    verdict: verdictOf(row.verdict, cellWhere(row)),
    reason: str(row.reason),
    cause: optStr(row.cause) as Cause | undefined,
    runs: Number(row.runs),
    counts: json(row.counts) as CellRecord["counts"],
    determinism: Number(row.determinism),
    stable: Number(row.stable) === 1,
    controlVerdict:
      row.control_verdict === null || row.control_verdict === undefined
        ? undefined
        : verdictOf(row.control_verdict, `${cellWhere(row)} (control)`),
    knownIssue: optStr(row.known_issue),
  };
}

export function attemptToRow(a: AttemptRecord): Row {
  return {
    run_id: a.runId,
    column: a.column,
    route_id: a.routeId,
    probe_id: a.probeId,
    mode: a.mode,
    phase: a.phase,
    attempt_no: a.attemptNo,
    status: a.status,
    timings: JSON.stringify(a.timings ?? null),
    exchange: JSON.stringify(a.exchange),
    verdicts: JSON.stringify(a.verdicts),
    client_sdk: a.clientSdk === undefined ? null : JSON.stringify(a.clientSdk),
  };
}

/** A judged attempt's keys: its cell, phase and number within the phase. */
function attemptKeysOf(row: Row): Omit<JudgementRef, "verdictsId" | "exchangeId"> {
  return {
    column: str(row.column),
    routeId: str(row.route_id),
    probeId: str(row.probe_id),
    mode: str(row.mode) as Mode,
    phase: str(row.phase) as AttemptPhase,
    attemptNo: Number(row.attempt_no),
  };
}

export function rowToAttempt(row: Row): AttemptRecord {
  return {
    runId: str(row.run_id),
    ...attemptKeysOf(row),
    status: str(row.status),
    timings: json(row.timings),
    exchange: storedExchange(str(row.exchange), attemptWhere(row)),
    verdicts: parseVerdictList(str(row.verdicts), str(row.route_id)),
    ...(row.client_sdk == null ? {} : { clientSdk: json(row.client_sdk) }),
  };
}

export function rowToAttemptText(row: Row): AttemptText {
  return {
    runId: str(row.run_id),
    ...attemptKeysOf(row),
    ...rowToExchangeTexts(row),
    verdicts: str(row.verdicts),
  };
}

export function rowToJudgementRef(row: Row): JudgementRef {
  return {
    ...attemptKeysOf(row),
    verdictsId: Number(row.verdicts_id),
    exchangeId: Number(row.exchange_id),
  };
}

export function rowToExchangeTexts(row: Row): ExchangeTexts {
  return {
    status: str(row.status),
    timings: str(row.timings),
    exchange: str(row.exchange),
    clientSdk: row.client_sdk == null ? "null" : str(row.client_sdk),
  };
}
