/**
 * Agent loops in the views (loops/, docs/loops.md): the matrix's "agent loops" section (per
 * gateway column and route, loops completed of loops run, every break with its turn, cause,
 * reason and the link to its bytes), the JSON summary's `loops`, and JUnit's "agent loops"
 * suites. A loop not run is counted apart, never as completed.
 */
import { loopEvidencePath } from "../loops/evidence-file.ts";
import { LOOP_VARIANTS, SECOND_CLIENT_VARIANT } from "../loops/loop-script.ts";
import type { LoopRecord } from "./loop-records.ts";
import { mdCode, mdLinkTarget, mdText } from "./markdown-text.ts";

export interface LoopRouteSummary {
  column: string;
  routeId: string;
  run: number;
  completed: number;
  notRun: number;
  breaks: {
    variant: string;
    turn: number;
    cause: string;
    reason: string;
    /** Relative to the run outputs folder. */
    evidence: string;
  }[];
  /** Cross-turn losses, `variant: loss`: of loops that completed, and those a broken loop had
   * before it broke. */
  losses: string[];
  notRunReasons: string[];
}

export interface LoopsSummary {
  run: number;
  completed: number;
  notRun: number;
  routes: LoopRouteSummary[];
}

export function summarizeLoops(runId: string, loops: readonly LoopRecord[]): LoopsSummary {
  const routes = new Map<string, LoopRouteSummary>();
  for (const loop of loops) {
    const key = `${loop.column}|${loop.routeId}`;
    let route = routes.get(key);
    if (!route) {
      route = {
        column: loop.column,
        routeId: loop.routeId,
        run: 0,
        completed: 0,
        notRun: 0,
        breaks: [],
        losses: [],
        notRunReasons: [],
      };
      routes.set(key, route);
    }
    if (loop.status === "not-run") {
      route.notRun += 1;
      if (loop.reason && !route.notRunReasons.includes(loop.reason)) {
        route.notRunReasons.push(loop.reason);
      }
      continue;
    }
    route.run += 1;
    if (loop.status === "completed") route.completed += 1;
    else {
      route.breaks.push({
        variant: loop.variant,
        turn: loop.turn ?? 0,
        cause: loop.cause ?? "unknown",
        reason: loop.reason ?? "",
        evidence: loopEvidencePath(runId, loop.column, loop.routeId, loop.variant),
      });
    }
    for (const loss of loop.losses) route.losses.push(`${loop.variant}: ${loss}`);
  }
  const list = [...routes.values()];
  const sum = (f: (r: LoopRouteSummary) => number) => list.reduce((n, r) => n + f(r), 0);
  return {
    run: sum((r) => r.run),
    completed: sum((r) => r.completed),
    notRun: sum((r) => r.notRun),
    routes: list,
  };
}

/**
 * A route's losses (`variant: loss`) with each loss once, followed by the variants it was
 * found in: the same loss on every variant reads once, not six times.
 */
export function groupedLosses(losses: readonly string[]): string {
  const variants = new Map<string, string[]>();
  for (const entry of losses) {
    const at = entry.indexOf(": ");
    const [variant, loss] = at < 0 ? ["", entry] : [entry.slice(0, at), entry.slice(at + 2)];
    const list = variants.get(loss) ?? [];
    if (variant && !list.includes(variant)) list.push(variant);
    variants.set(loss, list);
  }
  return [...variants]
    .map(([loss, list]) => (list.length > 0 ? `${loss} (${list.join(", ")})` : loss))
    .join("; ");
}

/** A route whose every loop ran, completed and lost nothing: one name in a list, not a row. */
function clean(route: LoopRouteSummary): boolean {
  return (
    route.run > 0 &&
    route.completed === route.run &&
    route.notRun === 0 &&
    route.losses.length === 0
  );
}

/**
 * The matrix's "agent loops" section; nothing when the run has no loops. A row per route with
 * a break, a loss or a loop not run; the clean routes named once per gateway below the table
 * (so the section stays readable with a dozen columns); every break's reason and bytes are
 * appendix G's.
 */
export function renderLoopsSection(summary: LoopsSummary): string[] {
  if (summary.routes.length === 0) return [];
  const lines = [
    "## Agent loops",
    "",
    `An official SDK client runs a scripted agent loop through each route against the mock as a deterministic model: turn 1 the task and the backend's tool calls, turn 2 the agent's echo (variants: ${LOOP_VARIANTS.map((v) => v.id).join(", ")}), turn 3 the final answer; and \`${SECOND_CLIENT_VARIANT}\`: two clients with their own keys, one after the other, where the second's requests must not reach the backend with the first's key (docs/loops.md). **${summary.completed} of ${summary.run} loops completed**${summary.notRun ? `; ${summary.notRun} not run (not counted)` : ""}. Every break's reason and bytes: appendix G.`,
    "",
  ];
  const rows = summary.routes.filter((r) => !clean(r));
  if (rows.length > 0) {
    lines.push(
      "| gateway | route | completed / run | broke (variant: turn, cause) | lost on the way (variants) |",
      "|---|---|---|---|---|",
    );
  }
  for (const r of rows) {
    const ratio = r.run === 0 ? "not run" : `${r.completed}/${r.run}`;
    const breaks = r.breaks.map((b) => `${b.variant}: turn ${b.turn}, ${b.cause}`).join("; ");
    const notRun = r.notRun ? ` (${r.notRun} not run: ${r.notRunReasons.join("; ")})` : "";
    lines.push(
      `| ${mdText(r.column)} | ${mdText(r.routeId)} | ${r.completed === r.run && r.run > 0 ? ratio : `**${ratio}**`}${mdText(notRun)} | ${mdText(breaks) || "·"} | ${mdText(groupedLosses(r.losses)) || "·"} |`,
    );
  }
  const cleanByColumn = new Map<string, LoopRouteSummary[]>();
  for (const r of summary.routes.filter(clean)) {
    cleanByColumn.set(r.column, [...(cleanByColumn.get(r.column) ?? []), r]);
  }
  if (cleanByColumn.size > 0) {
    lines.push("", "Every loop completed and nothing was lost on:", "");
    for (const [column, routes] of cleanByColumn) {
      const loops = routes.reduce((n, r) => n + r.run, 0);
      lines.push(
        `- ${mdText(column)}: ${routes.length} route(s), ${loops} loops: ${mdText(routes.map((r) => r.routeId).join(", "))}`,
      );
    }
  }
  return [...lines, ""];
}

/** Appendix G: every loop break with its reason and a link to its bytes. */
export function renderLoopBreaksAppendix(summary: LoopsSummary): string[] {
  const breaks = summary.routes.flatMap((r) => r.breaks.map((b) => ({ ...r, ...b })));
  if (breaks.length === 0) return [];
  const lines = [
    "## G. Every agent loop break",
    "",
    "With the reason and its bytes (also in the database's `loops` table):",
    "",
  ];
  for (const b of breaks) {
    lines.push(
      `- ${mdText(b.column)} ${mdCode(b.routeId)} ${mdText(b.variant)}: **broke at turn ${b.turn}, ${mdText(b.cause)}**. ${mdText(b.reason)} ([bytes](${mdLinkTarget(b.evidence)}))`,
    );
  }
  return [...lines, ""];
}
