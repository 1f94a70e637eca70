/**
 * Folding N attempts of one cell into its verdict. The cell's verdict is the most frequent
 * one; a tie goes to the worse class (a silent defect outranks a clean pass, since a defect
 * that shows half the time is still a defect). `k` counts the attempts that agree with it,
 * and the cell is stable only when all N agree.
 */
import { VERDICT_CLASS, type VerdictKind } from "../probes/verdict.ts";

export interface FoldedVerdict {
  verdict: VerdictKind;
  counts: Partial<Record<VerdictKind, number>>;
  k: number;
  n: number;
  stable: boolean;
}

const CLASS_RANK = { silent: 3, loud: 2, "not-a-finding": 1, clean: 0 } as const;

export function foldVerdicts(verdicts: readonly VerdictKind[]): FoldedVerdict {
  if (verdicts.length === 0) throw new Error("foldVerdicts needs at least one attempt");
  const counts: Partial<Record<VerdictKind, number>> = {};
  for (const v of verdicts) counts[v] = (counts[v] ?? 0) + 1;
  const ranked = (Object.entries(counts) as [VerdictKind, number][]).sort(
    ([va, ca], [vb, cb]) =>
      cb - ca ||
      CLASS_RANK[VERDICT_CLASS[vb]] - CLASS_RANK[VERDICT_CLASS[va]] ||
      va.localeCompare(vb),
  );
  const [verdict, k] = ranked[0] as [VerdictKind, number];
  return { verdict, counts, k, n: verdicts.length, stable: k === verdicts.length };
}
