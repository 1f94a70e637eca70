/**
 * Positive controls with their whole denominator. Every known issue the run's probes carry
 * (a probe's `knownIssues` entry: a gateway, its versions, a public issue) is one control,
 * and each is reproduced (a cell of it has a finding), not reproduced (its cells were judged
 * and all are clean) or not measured, with why: the gateway was not in the run, it did not
 * run, the version that ran is not one the issue names (so no cell stands for it), or its
 * cells were not run. A control nobody measured is counted, never left out.
 */
import { z } from "zod";
import { VERDICT_CLASS } from "../probes/verdict.ts";
import type { CellRecord } from "./records.ts";
import type { RunView } from "./run-view.ts";

export type ControlState = "reproduced" | "not reproduced" | "not measured";

export interface PositiveControl {
  probeId: string;
  gateway: string;
  /** The issue (or commit) the probe cites for this gateway. */
  url: string;
  /** What the cited versions are (`["2.0.0"]`, `<2.1.0`). */
  versions: string;
  backends?: string[];
  expect: string;
  state: ControlState;
  /** The cells that stand for it in this run (any verdict). */
  cells: CellRecord[];
  /** For `not measured`: why. */
  why?: string;
}

/**
 * A known issue as stored in a probe's definition: read leniently (a definition stored by an
 * older gatecheck still counts), the fields the report needs checked.
 */
const knownIssues = z.array(
  z.looseObject({
    gateway: z.string(),
    versions: z.union([z.string(), z.array(z.string())]),
    expect: z.string(),
    url: z.string(),
    backends: z.array(z.string()).optional(),
  }),
);

export const CONTROL_STATES: readonly ControlState[] = [
  "reproduced",
  "not reproduced",
  "not measured",
];

export function positiveControlsOf(view: RunView): PositiveControl[] {
  const gatewayOf = new Map(view.gatewayRuns.map((g) => [g.column, g.gateway]));
  const out = new Map<string, PositiveControl>();
  for (const probe of view.probes.values()) {
    const definition = probe.definition as { knownIssues?: unknown } | null;
    const parsed = knownIssues.safeParse(definition?.knownIssues ?? []);
    if (!parsed.success) continue;
    for (const issue of parsed.data) {
      const key = `${probe.probeId}\u0000${issue.gateway}\u0000${issue.url}`;
      if (out.has(key)) continue;
      const cells = view.cells.filter(
        (c) =>
          c.probeId === probe.probeId &&
          c.knownIssue === issue.url &&
          (gatewayOf.get(c.column) ?? c.column.split("@")[0]) === issue.gateway,
      );
      out.set(key, {
        probeId: probe.probeId,
        gateway: issue.gateway,
        url: issue.url,
        versions: Array.isArray(issue.versions) ? issue.versions.join(", ") : issue.versions,
        ...(issue.backends ? { backends: [...issue.backends] } : {}),
        expect: issue.expect,
        ...stateOf(view, issue.gateway, cells, issue),
        cells,
      });
    }
  }
  return [...out.values()].sort(
    (a, b) =>
      CONTROL_STATES.indexOf(a.state) - CONTROL_STATES.indexOf(b.state) ||
      a.gateway.localeCompare(b.gateway) ||
      a.probeId.localeCompare(b.probeId),
  );
}

function stateOf(
  view: RunView,
  gateway: string,
  cells: readonly CellRecord[],
  issue: { versions: string | string[]; backends?: readonly string[] },
): { state: ControlState; why?: string } {
  const classes = cells.map((c) => VERDICT_CLASS[c.verdict]);
  if (classes.some((c) => c === "silent" || c === "loud")) return { state: "reproduced" };
  if (classes.some((c) => c === "clean")) return { state: "not reproduced" };
  const rows = view.gatewayRuns.filter((g) => g.gateway === gateway);
  if (rows.length === 0) return { state: "not measured", why: `${gateway} is not in this run` };
  if (rows.every((g) => g.status !== "ok")) {
    const first = rows[0];
    return {
      state: "not measured",
      why: `${first?.column} ${first?.status}${first?.reason ? `: ${first.reason}` : ""}`,
    };
  }
  if (cells.length > 0) {
    return { state: "not measured", why: `its cells were not measured: ${cells[0]?.reason}` };
  }
  const ran = [...new Set(rows.map((g) => g.version))].join(", ");
  const versions = Array.isArray(issue.versions) ? issue.versions.join(", ") : issue.versions;
  const where = issue.backends ? ` on ${issue.backends.join(", ")} backends` : "";
  return {
    state: "not measured",
    why: `${gateway} ran ${ran}; the issue is about ${versions}${where}, which no cell of this run stands for`,
  };
}
