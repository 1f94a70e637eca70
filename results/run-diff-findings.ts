/**
 * The side findings' part of `diff` (run-diff.ts): on each pair of matched cells, which
 * subjects other than the probe's own became, stopped being or changed as a silent defect.
 * A new side finding is a regression when run A's main attempt of the cell judged that
 * subject clean, the same "clean → silent" rule as a cell's own verdict; otherwise (A did not
 * judge it, or lost it another way) it is listed as new and does not fail the job.
 */
import { VERDICT_CLASS, type VerdictKind } from "../probes/verdict.ts";
import type { FindingRecord } from "./findings.ts";
import { type CellRecord, cellKeyString } from "./records.ts";
import type { CellChange, CellSide, DiffOptions, RunDiff } from "./run-diff.ts";
import type { RunView } from "./run-view.ts";

/** Side findings (not the probe's own subject) by cell key. */
export function sideFindingsByCell(view: RunView): Map<string, FindingRecord[]> {
  const out = new Map<string, FindingRecord[]>();
  for (const f of view.findings) {
    if (f.own) continue;
    const key = cellKeyString(f);
    out.set(key, [...(out.get(key) ?? []), f]);
  }
  return out;
}

function findingSide(f: FindingRecord, column: string): CellSide {
  return {
    column,
    verdict: f.verdict,
    reason: f.reason,
    runs: f.runs,
    determinism: f.k,
    ...(f.attempt ? { attemptId: f.attempt.id } : {}),
    severity: f.severity,
  };
}

/** One entry per subject: the most severe verdict wins where an attempt list held two. */
function bySubject(findings: readonly FindingRecord[]): Map<string, FindingRecord> {
  const out = new Map<string, FindingRecord>();
  for (const f of findings) {
    const held = out.get(f.subject);
    if (!held || f.k > held.k) out.set(f.subject, f);
  }
  return out;
}

/** Adds the pair's side-finding changes to `diff`; `base` is the cell's own change. */
export function diffSideFindings(
  diff: RunDiff,
  pair: {
    base: CellChange;
    after: CellRecord;
    before?: CellRecord;
    findingsA: readonly FindingRecord[];
    findingsB: readonly FindingRecord[];
    verdictBefore: DiffOptions["verdictBefore"];
  },
): void {
  const a = bySubject(pair.findingsA);
  const b = bySubject(pair.findingsB);
  const { base } = pair;
  const afterCell = pair.after;
  for (const [subject, found] of b) {
    const held = a.get(subject);
    if (held && held.verdict === found.verdict) continue;
    const beforeVerdict: VerdictKind | undefined =
      held?.verdict ?? (pair.before ? pair.verdictBefore?.(pair.before, subject) : undefined);
    const change = {
      ...base,
      subject,
      before:
        pair.before && beforeVerdict
          ? held
            ? findingSide(held, pair.before.column)
            : {
                column: pair.before.column,
                verdict: beforeVerdict,
                reason: "",
                runs: 1,
                determinism: 1,
              }
          : undefined,
      after: findingSide(found, afterCell.column),
    };
    if (held) {
      diff.otherChanges.push(change);
      continue;
    }
    diff.newFindings.push(change);
    if (beforeVerdict && VERDICT_CLASS[beforeVerdict] === "clean") diff.regressions.push(change);
  }
  if (!pair.before) return;
  for (const [subject, gone] of a) {
    if (b.has(subject)) continue;
    diff.fixedFindings.push({
      ...base,
      subject,
      before: findingSide(gone, pair.before.column),
      after: undefined,
    });
  }
}
