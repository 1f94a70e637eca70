/**
 * The shapes the results database stores, as the sweep hands them to the writer and as
 * readers get them back. These types are the stable contract between `sweep/` (and
 * `rescore`) and `results/`; the SQL behind them is in schema.ts.
 *
 * JSON-valued fields (`args`, `timings`, wire records, `definition`) are stored as JSON text
 * and come back parsed. Wire records arrive already redacted by the sweep.
 */
import type { ClientDialect, Dialect, Mode } from "../dialects/dialect.ts";
import type { WireExchange } from "../dialects/wire/exchange.ts";
import type { Cause } from "../probes/causes.ts";
import type { Subject } from "../probes/subject.ts";
import type { Verdict, VerdictKind } from "../probes/verdict.ts";

export type RunStatus = "running" | "done" | "interrupted";

export interface RunRecord {
  /** `2026-11-30T02-10-00Z-ab12`: sortable UTC start time plus a random suffix (see newRunId). */
  id: string;
  /** ISO 8601. */
  startedAt: string;
  finishedAt?: string;
  status: RunStatus;
  gatecheckVersion: string;
  gitSha?: string;
  /** The sweep's arguments as parsed, for the record. */
  args: unknown;
  /** `i/n` when this run is one shard of a sweep; a merged run lists its shards, `1/3,2/3`. */
  shard?: string;
}

export type GatewayRunStatus = "ok" | "not-run" | "error";

export interface GatewayRunRecord {
  runId: string;
  /** Gateway name (`portkey`, `direct`). */
  gateway: string;
  /** Version that ran, or the pinned one when it did not run. */
  version: string;
  /** Column label used in every matrix: `portkey@1.15.2+locked`. Unique per run. */
  column: string;
  status: GatewayRunStatus;
  /** Why it did not run or errored (`binary not on PATH`, `crashed twice: ...`). */
  reason?: string;
  logPath?: string;
}

export interface ProbeRecord {
  probeId: string;
  /** Hash of the probe's definition: a changed probe is a different probe. */
  definitionHash: string;
  clientDialect: ClientDialect;
  axis: string;
  /** Field in the client dialect's dotted spelling (`tools[].function.strict`). */
  field: string;
  /** What the field names, the same in every client dialect (`tools.strict`; probes/subject.ts). */
  subject: Subject;
  severity: string;
  /** The probe as data, for the record. */
  definition: unknown;
}

/** What identifies a cell inside one run. */
export interface CellKey {
  /** Gateway column label (GatewayRunRecord.column). */
  column: string;
  /** Route id, `anthropic-messages->openai-chat`. */
  routeId: string;
  probeId: string;
  mode: Mode;
}

export interface CellRecord extends CellKey {
  runId: string;
  clientDialect: ClientDialect;
  backendDialect: Dialect;
  definitionHash: string;
  /** The probe's subject (ProbeRecord.subject), so a query by subject needs no join. */
  subject: Subject;
  /** The cell's verdict: the majority across its runs (the sweep decides). */
  verdict: VerdictKind;
  reason: string;
  cause?: Cause;
  /** N: attempts judged for this cell (main + repeats). */
  runs: number;
  /** How many of the N runs gave each verdict. */
  counts: Partial<Record<VerdictKind, number>>;
  /** k of N: how many runs agreed with `verdict`. */
  determinism: number;
  /** All N runs agreed. */
  stable: boolean;
  /** Verdict of the control leg (same field over the gateway's native route), if one ran. */
  controlVerdict?: VerdictKind;
  /** Known upstream issue this cell is a positive control for (`BerriAI/litellm#1234` or a URL). */
  knownIssue?: string;
}

export type AttemptPhase = "main" | "repeat" | "control";

export interface AttemptRecord extends CellKey {
  runId: string;
  /** 1-based within (cell, phase). */
  attemptNo: number;
  phase: AttemptPhase;
  /** `ok`, `timeout`, `transport-error`, ... as the sweep names it. */
  status: string;
  /** The sweep's clock: `{firstByteMs?, totalMs, chunks}`. */
  timings: unknown;
  /**
   * The attempt's traffic, redacted: the client request and response, every request the mock
   * got for its nonce, the upstream reply, the clock facts and the judging context. The shape
   * `gatecheck check` reads and `export` writes (dialects/wire/exchange.ts).
   */
  exchange: WireExchange;
  /** Every verdict the lens gave on this attempt, all fields. */
  verdicts: Verdict[];
  /** What the client dialect's official SDK made of the client response, and whether it
   * agrees with the lens (absent in databases written before schema version 2). */
  clientSdk?: unknown;
}

/**
 * A stored attempt by its keys and the ids of its bytes (`exchanges`) and verdict list
 * (`verdict_lists`), no text: enough to choose attempts before reading their bytes.
 */
export interface JudgementRef extends CellKey {
  phase: AttemptPhase;
  attemptNo: number;
  verdictsId: number;
  exchangeId: number;
}

/** An exchange's wire bytes and timings as stored text (JSON not parsed). */
export interface ExchangeTexts {
  status: string;
  timings: string;
  /** The exchange (AttemptRecord.exchange) as JSON text. */
  exchange: string;
  /** `"null"` when no SDK view was stored. */
  clientSdk: string;
}

/** An attempt with its JSON-valued fields as stored text, not parsed. */
export interface AttemptText extends CellKey, ExchangeTexts {
  runId: string;
  attemptNo: number;
  phase: AttemptPhase;
  verdicts: string;
}

/** One cell as written by the sweep: the cell row (inserted or updated) and new attempts. */
export interface CellWrite {
  cell: CellRecord;
  attempts: AttemptRecord[];
}

/** A cell already in the database, as `--resume` needs to know it. */
export interface DoneCell extends CellKey {
  verdict: VerdictKind;
  runs: number;
  stable: boolean;
  controlVerdict?: VerdictKind;
}

export function cellKeyString(key: CellKey): string {
  return `${key.column} | ${key.routeId} | ${key.probeId} | ${key.mode}`;
}
