/**
 * Which stored cells `--resume` keeps. A cell is written after each phase that adds to it
 * (the main attempt, then its repeats, then its control leg), so a run interrupted, or
 * killed, between two phases holds cells that did not go through all theirs. Those are run
 * again from their first attempt; keeping them would end the resumed run with other k-of-N
 * figures and missing control verdicts than a run never interrupted.
 */
import { isClean, isSilentDefect } from "../probes/verdict.ts";
import type { DoneCell } from "../results/records.ts";

/**
 * Whether a stored cell is finished: unattempted (`not-run` is never kept: the caller runs
 * those again) or given up on (`error`), clean at its first attempt, or repeated to
 * `repeats` attempts; and with its control verdict when it is a silent defect that has a
 * control leg.
 */
export function finishedCell(stored: DoneCell, repeats: number, hasControlLeg: boolean): boolean {
  if (stored.verdict === "error" || stored.runs === 0) return true;
  const repeated = (stored.runs === 1 && isClean(stored.verdict)) || stored.runs >= repeats;
  if (!repeated) return false;
  return !(isSilentDefect(stored.verdict) && hasControlLeg) || stored.controlVerdict !== undefined;
}
