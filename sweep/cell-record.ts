/**
 * From a cell's attempts to the rows the results store keeps: the folded cell (verdict,
 * k of N, control mark, known issue) and one attempt row per attempt, redacted.
 */
import { redactJson } from "../dialects/credentials.ts";
import { CANARY_VALUES } from "../probes/corpus/canaries.ts";
import type { Probe } from "../probes/corpus/probe.ts";
import { probeHash } from "../probes/corpus/probe-hash.ts";
import { subjectOf } from "../probes/subject.ts";
import type { Verdict, VerdictKind } from "../probes/verdict.ts";
import type {
  AttemptPhase,
  AttemptRecord,
  CellKey,
  CellRecord,
  ProbeRecord,
} from "../results/records.ts";
import type { AttemptOutcome } from "./attempt.ts";
import type { PlannedCell } from "./cells.ts";
import { foldVerdicts } from "./determinism.ts";

/** A probe as stored: canaries redacted, so the database holds no key lookalike. */
export function storedProbe(probe: Probe): ProbeRecord {
  const definition = redactJson(probe, canariesIn(probe));
  return {
    probeId: probe.id,
    definitionHash: definitionHash(probe),
    clientDialect: probe.client,
    axis: probe.axis,
    field: probe.field,
    subject: subjectOf(probe.client, probe.field),
    severity: probe.severity,
    definition,
  };
}

/**
 * Only the canaries that occur in the probe's JSON text: redacting with one that does not
 * occur is a no-op, yet costs a sha256 per string of the probe (redactText tags every secret
 * it is given), which made storing the corpus a quarter of a second. JSON escaping is per
 * character, so a secret inside a string value also occurs, escaped, in the text.
 */
function canariesIn(probe: Probe): string[] {
  const text = JSON.stringify(probe);
  return CANARY_VALUES.filter((secret) => text.includes(JSON.stringify(secret).slice(1, -1)));
}

const hashes = new WeakMap<Probe, string>();

/**
 * The probe's definition hash (probes/corpus/probe-hash.ts): a changed probe is another
 * probe. Kept per probe object: every cell record asks for it, and a probe is not mutated
 * during a sweep.
 */
export function definitionHash(probe: Probe): string {
  let hash = hashes.get(probe);
  if (hash === undefined) {
    hash = probeHash(probe);
    hashes.set(probe, hash);
  }
  return hash;
}

export function attemptRecord(
  runId: string,
  key: CellKey,
  phase: AttemptPhase,
  attemptNo: number,
  outcome: AttemptOutcome,
): AttemptRecord {
  return {
    ...key,
    runId,
    attemptNo,
    phase,
    status: outcome.status,
    timings: outcome.timings,
    exchange: outcome.exchange,
    verdicts: outcome.verdicts,
    ...(outcome.clientSdk ? { clientSdk: outcome.clientSdk } : {}),
  };
}

export interface CellFacts {
  runId: string;
  cell: PlannedCell;
  /** Verdicts of the main and repeat attempts, in order. */
  verdicts: readonly Verdict[];
  controlVerdict?: VerdictKind;
  knownIssue?: string;
}

export function cellRecord(facts: CellFacts): CellRecord {
  const { cell, verdicts } = facts;
  const folded = foldVerdicts(verdicts.map((v) => v.verdict));
  const representative = verdicts.find((v) => v.verdict === folded.verdict) ?? verdicts[0];
  return {
    ...cell.key,
    runId: facts.runId,
    clientDialect: cell.route.client,
    backendDialect: cell.route.backend,
    definitionHash: definitionHash(cell.probe),
    subject: subjectOf(cell.probe.client, cell.probe.field),
    verdict: folded.verdict,
    reason: representative?.reason ?? "",
    ...(representative?.cause ? { cause: representative.cause } : {}),
    runs: folded.n,
    counts: folded.counts,
    determinism: folded.k,
    stable: folded.stable,
    ...(facts.controlVerdict ? { controlVerdict: facts.controlVerdict } : {}),
    ...(facts.knownIssue ? { knownIssue: facts.knownIssue } : {}),
  };
}

/** A cell that was never attempted (gateway not run, budget spent, gateway dead). */
export function unattemptedCell(
  runId: string,
  cell: PlannedCell,
  verdict: Extract<VerdictKind, "not-run" | "error">,
  reason: string,
  knownIssue?: string,
): CellRecord {
  return {
    ...cell.key,
    runId,
    clientDialect: cell.route.client,
    backendDialect: cell.route.backend,
    definitionHash: definitionHash(cell.probe),
    subject: subjectOf(cell.probe.client, cell.probe.field),
    verdict,
    reason,
    runs: 0,
    counts: {},
    determinism: 0,
    stable: true,
    ...(knownIssue ? { knownIssue } : {}),
  };
}
