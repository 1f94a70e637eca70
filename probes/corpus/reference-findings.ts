/**
 * The reference sweep's published findings (kairo: `issues/SCOREBOARD.md`, `issues/MATRIX.md`
 * and one folder per finding) for the gateways gatecheck runs, as positive controls: each
 * names the probe that measures it, the version it was published for, the verdict the
 * cell must show there, and the finding's write-up at the commit we read. A finding whose
 * version is not a column of a run is not measured by it; where gatecheck's bytes disagree
 * on the same version, docs/gateways.md says why.
 *
 * `reproduced: true` only where a real-gateway test of this repository runs the cell
 * (sweep/live-gateways.test.ts); the matrix says reproduced or not for every run.
 */
import type { KnownIssue, Probe } from "./probe.ts";
import { ANY_LLM_FINDINGS, GOMODEL_FINDINGS } from "./reference-findings-any-llm-gomodel.ts";
import { LITELLM_FINDINGS } from "./reference-findings-litellm.ts";
import { SWITCHYARD_FINDINGS } from "./reference-findings-switchyard.ts";

/**
 * In this order a probe's findings keep the order they had in one file, and so the probe's
 * definition hash (probe-hash.ts hashes its known issues too): runs before and after compare.
 */
const findings = [
  ...LITELLM_FINDINGS,
  ...SWITCHYARD_FINDINGS,
  ...GOMODEL_FINDINGS,
  ...ANY_LLM_FINDINGS,
];

/** Probe id -> the reference's findings measured by that probe. */
export const REFERENCE_FINDINGS: Readonly<Record<string, readonly KnownIssue[]>> = findings.reduce<
  Record<string, KnownIssue[]>
>((all, part) => {
  for (const [id, issues] of Object.entries(part)) all[id] = [...(all[id] ?? []), ...issues];
  return all;
}, {});

/** The probes with the reference's findings added to their own known issues. */
export function withReferenceFindings(probes: readonly Probe[]): Probe[] {
  return probes.map((probe) => {
    const extra = REFERENCE_FINDINGS[probe.id];
    return extra ? { ...probe, knownIssues: [...(probe.knownIssues ?? []), ...extra] } : probe;
  });
}
