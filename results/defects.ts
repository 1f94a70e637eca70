/**
 * The headline's unit: a distinct silent defect of one gateway column, with every cell it
 * explains. Many cells often share one root cause (a gateway that answers a Responses client
 * with a Chat body loses the text, the stop reason and the tool calls of every probe on that
 * route); counting each cell as its own finding buries the cause. The rules, applied to every
 * silent defect of the run (results/findings.ts: the probes' own and side findings) in order,
 * each defect going to the first rule that takes it (docs/results.md "The headline"):
 *
 * 1. Failed delivery: the cell's client got a 5xx or no response while the upstream answered
 *    with a success (report-facts.ts). Its reply-side defects are that failure, one defect per
 *    column, which also counts the cells with no other defect. Request-side defects on those
 *    cells are judged as they reached the upstream and go on to the next rules.
 * 2. Direction not carried: on a route and mode where the direction's carrier (the request's
 *    `messages`, the reply's `text`) was lost on more than half of the main attempts that
 *    judged it, every defect of that direction there is that one defect, except leaks.
 * 3. Otherwise one defect per (subject, verdict, cause), across routes and modes.
 *
 * Severity is the severity table's (probes/lens/severity.ts) for (subject, verdict, cause) on
 * the route's target: a subject defect is one severity (a `tools: []` invented where the
 * target refuses it and where it does not are two defects), a not-carried one takes its
 * worst finding's, a failed delivery FAILED_DELIVERY_SEVERITY. Defects are ranked by
 * severity, then by the cells they explain.
 */
import type { Mode } from "../dialects/dialect.ts";
import {
  FAILED_DELIVERY_SEVERITY,
  FINDING_SEVERITIES,
  type FindingSeverity,
  severityRank,
} from "../probes/lens/severity.ts";
import { isReplySubject } from "../probes/subject.ts";
import type { FindingRecord } from "./findings.ts";
import { mdCode, mdText } from "./markdown-text.ts";
import { type CellKey, type CellRecord, cellKeyString } from "./records.ts";
import { CARRIERS, type Direction, type ReportFacts } from "./report-facts.ts";
import { summarizeRun } from "./run-summary.ts";

export type DefectRule = "failed-delivery" | "not-carried" | "subject";

export interface Defect {
  column: string;
  rule: DefectRule;
  /** One line of Markdown, its data escaped: `dropped \`tools.strict\``, `failed delivery: ...`. */
  title: string;
  severity: FindingSeverity;
  /** The severity table's row that decided it (its worst finding's). */
  severityRule: string;
  /** Distinct cells it explains, in cell order. */
  cells: CellKey[];
  routes: string[];
  modes: Mode[];
  subjects: string[];
  /** Cells where the probe asked about one of its subjects; the rest are side findings. */
  ownCells: number;
  /** The cells (cellKeyString) counted in `ownCells`, so a part of the defect can count its own. */
  ownKeys: string[];
  example: string;
  /** The attempt behind `example` and its cell, where the example came from a finding:
   * `gatecheck export --attempt-id` writes its bytes. */
  exampleAttempt?: ExampleAttempt;
  /** Attempts whose bytes the rig audit reads (rig-suspects.ts): one per route (the
   * example's for its route), at most EVIDENCE_ROUTES, each with its finding's reason. */
  evidence: EvidenceAttempt[];
  knownIssues: string[];
  probes: string[];
  /** Signs that the rig, not the gateway, made it (rig-suspects.ts); set by the audit. A
   * defect with any is withheld from the headline and listed as a rig suspect. */
  signs?: RigSignFound[];
}

/** A sign of the rig's hand found on a defect: which sign, and what shows it. */
export interface RigSignFound {
  sign: string;
  evidence: string;
}

/** How many routes of a defect the rig audit reads an attempt of. */
export const EVIDENCE_ROUTES = 24;

export interface EvidenceAttempt extends ExampleAttempt {
  reason?: string;
}

export interface ExampleAttempt extends CellKey {
  attemptId: number;
}

/**
 * The control column's gateway: `direct`, the client talking to the mock with no gateway
 * between (gateways/adapters/direct.ts; sweep/control-clean.test.ts holds the two names equal).
 * Its findings are a rule blaming a gateway for what the upstream or the rig did.
 */
export const CONTROL_GATEWAY = "direct";

export interface ColumnHeadline {
  column: string;
  /** The control column (CONTROL_GATEWAY): any defect on it is a lens bug, not a gateway's. */
  control: boolean;
  status: string;
  reason?: string;
  cells: number;
  /** Cells with a verdict either way (not error, not not-run). */
  judged: number;
  rejected: number;
  /** Distinct cells some defect explains. */
  withDefect: number;
  defects: Defect[];
}

const FAILED_DELIVERY = "failed-delivery";

function directionOf(f: FindingRecord): Direction {
  if (f.direction) return f.direction;
  return isReplySubject(f.subject) || f.subject.startsWith("failure.") ? "reply" : "request";
}

interface Group {
  column: string;
  rule: DefectRule;
  /** The direction a not-carried defect is about. */
  direction?: Direction;
  title: string;
  cells: Map<string, CellKey>;
  own: Set<string>;
  subjects: Set<string>;
  /** The worst severity of what it holds (a rank of FINDING_SEVERITIES) and its table row. */
  severity: number;
  severityRule: string;
  example?: string;
  exampleAttempt?: ExampleAttempt;
  exampleIsOwn: boolean;
  /** Attempts on distinct routes, in the order met. */
  evidence: EvidenceAttempt[];
}

export function headlineOf(facts: ReportFacts): ColumnHeadline[] {
  const { view } = facts;
  const cellOf = new Map(view.cells.map((c) => [cellKeyString(c), c]));
  const failed = new Map(facts.deliveries.map((d) => [cellKeyString(d), d]));
  const notCarried = notCarriedDirections(facts);
  const groups = new Map<string, Group>();
  const group = (
    column: string,
    key: string,
    rule: DefectRule,
    title: () => string,
    direction?: Direction,
  ) => {
    const id = `${column}\u0000${key}`;
    let g = groups.get(id);
    if (!g) {
      g = {
        column,
        rule,
        ...(direction ? { direction } : {}),
        title: title(),
        cells: new Map(),
        own: new Set(),
        subjects: new Set(),
        severity: FINDING_SEVERITIES.length,
        severityRule: "",
        exampleIsOwn: false,
        evidence: [],
      };
      groups.set(id, g);
    }
    return g;
  };
  const add = (
    g: Group,
    cell: CellKey,
    subject: string,
    own: boolean,
    severity: { severity: FindingSeverity; rule: string },
    reason?: string,
    attempt?: FindingRecord["attempt"],
  ) => {
    const key = cellKeyString(cell);
    g.cells.set(key, cell);
    if (own) g.own.add(key);
    g.subjects.add(subject);
    const rank = severityRank(severity.severity);
    if (rank < g.severity) {
      g.severity = rank;
      g.severityRule = severity.rule;
    }
    if (
      attempt &&
      g.evidence.length < EVIDENCE_ROUTES &&
      !g.evidence.some((e) => e.routeId === cell.routeId)
    ) {
      g.evidence.push({ ...exampleOf(cell, attempt.id), ...(reason ? { reason } : {}) });
    }
    // The example is the first reason given, or the first of a probe that asked, if any did.
    if (reason && (g.example === undefined || (own && !g.exampleIsOwn))) {
      g.example = reason;
      g.exampleIsOwn = own;
      g.exampleAttempt = attempt && exampleOf(cell, attempt.id);
    }
  };

  for (const delivery of facts.deliveries) {
    const cell = cellOf.get(cellKeyString(delivery));
    const g = group(delivery.column, FAILED_DELIVERY, "failed-delivery", () =>
      deliveryTitle(facts, delivery.column),
    );
    add(
      g,
      delivery,
      cell?.subject ?? "",
      true,
      FAILED_DELIVERY_SEVERITY,
      cell?.verdict === "rejected" ? cell.reason : undefined,
    );
  }
  for (const f of view.findings) {
    const direction = directionOf(f);
    const key = cellKeyString(f);
    const severity = { severity: f.severity, rule: f.severityRule };
    if (direction === "reply" && failed.has(key)) {
      const g = group(f.column, FAILED_DELIVERY, "failed-delivery", () =>
        deliveryTitle(facts, f.column),
      );
      add(g, f, f.subject, f.own, FAILED_DELIVERY_SEVERITY, f.reason, f.attempt);
      continue;
    }
    const carried = notCarried.get(
      `${f.column}\u0000${f.routeId}\u0000${f.mode}\u0000${direction}`,
    );
    if (carried && f.verdict !== "leaked") {
      const g = group(
        f.column,
        `not-carried\u0000${f.routeId}\u0000${direction}`,
        "not-carried",
        () => notCarriedTitle(direction, f.routeId),
        direction,
      );
      const carrier = f.subject === CARRIERS[direction];
      add(g, f, f.subject, f.own, severity, carrier ? f.reason : undefined, f.attempt);
      continue;
    }
    // One severity per subject defect: where the target decides it (an empty value one
    // target refuses), the routes to each kind of target are a defect each.
    const g = group(
      f.column,
      `subject\u0000${f.subject}\u0000${f.verdict}\u0000${f.cause ?? ""}\u0000${f.severity}`,
      "subject",
      () => `${f.verdict} ${mdCode(f.subject)}${f.cause ? ` (${mdText(f.cause)})` : ""}`,
    );
    add(g, f, f.subject, f.own, severity, f.reason, f.attempt);
  }
  return columnsOf(facts, [...groups.values()], cellOf, notCarried);
}

function exampleOf(cell: CellKey, attemptId: number): ExampleAttempt {
  return {
    column: cell.column,
    routeId: cell.routeId,
    probeId: cell.probeId,
    mode: cell.mode,
    attemptId,
  };
}

/** `column|route|mode|direction` → judged/lost where the carrier was lost on most attempts. */
function notCarriedDirections(facts: ReportFacts): Map<string, { judged: number; lost: number }> {
  const out = new Map<string, { judged: number; lost: number }>();
  for (const c of facts.carriers) {
    if (c.lost * 2 <= c.judged) continue;
    out.set(`${c.column}\u0000${c.routeId}\u0000${c.mode}\u0000${c.direction}`, c);
  }
  return out;
}

function notCarriedTitle(direction: Direction, routeId: string): string {
  return direction === "request"
    ? `requests on ${mdText(routeId)} reach the backend without their \`${CARRIERS.request}\`: every request-side loss there is this one`
    : `replies on ${mdText(routeId)} reach the client without their \`${CARRIERS.reply}\`: every reply-side loss there is this one`;
}

function deliveryTitle(facts: ReportFacts, column: string): string {
  const statuses = new Map<string, number>();
  let nothingForwarded = 0;
  let mine = 0;
  for (const d of facts.deliveries) {
    if (d.column !== column) continue;
    mine += 1;
    const status = d.clientStatus === 0 ? "no response" : String(d.clientStatus);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (d.upstreamStatus === undefined) nothingForwarded += 1;
  }
  const got = [...statuses].map(([s, n]) => (statuses.size > 1 ? `${s} (${n})` : s)).join(", ");
  const upstream =
    nothingForwarded === mine
      ? "nothing reached the upstream"
      : nothingForwarded > 0
        ? `the upstream answered with a success (${nothingForwarded} never forwarded)`
        : "the upstream answered with a success";
  return `failed delivery: the client got ${got} while ${upstream}; reply fields not judged there`;
}

function columnsOf(
  facts: ReportFacts,
  groups: Group[],
  cellOf: Map<string, CellRecord>,
  notCarried: Map<string, { judged: number; lost: number }>,
): ColumnHeadline[] {
  const { view } = facts;
  const summary = summarizeRun(view.run, view.gatewayRuns, view.cells);
  return summary.columns.map((col) => {
    const mine = groups.filter((g) => g.column === col.column);
    const withDefect = new Set(mine.flatMap((g) => [...g.cells.keys()]));
    const defects = mine
      .map((g) => toDefect(g, cellOf, notCarried))
      .sort(
        (a, b) =>
          severityRank(a.severity) - severityRank(b.severity) ||
          b.cells.length - a.cells.length ||
          a.title.localeCompare(b.title),
      );
    return {
      column: col.column,
      control: col.gateway === CONTROL_GATEWAY,
      status: col.status,
      ...(col.reason ? { reason: col.reason } : {}),
      cells: Object.values(col.counts).reduce((a, b) => a + b, 0),
      judged: col.judged,
      rejected: col.loud,
      withDefect: withDefect.size,
      defects,
    };
  });
}

function toDefect(
  g: Group,
  cellOf: Map<string, CellRecord>,
  notCarried: Map<string, { judged: number; lost: number }>,
): Defect {
  const cells = [...g.cells.values()];
  const records = cells.flatMap((c) => cellOf.get(cellKeyString(c)) ?? []);
  const title =
    g.rule === "not-carried" ? `${g.title}${carriedFigures(g, cells, notCarried)}` : g.title;
  return {
    column: g.column,
    rule: g.rule,
    title,
    severity: FINDING_SEVERITIES[g.severity] ?? "minor",
    severityRule: g.severityRule,
    cells,
    routes: [...new Set(cells.map((c) => c.routeId))].sort(),
    modes: [...new Set(cells.map((c) => c.mode))].sort() as Mode[],
    subjects: [...g.subjects].filter(Boolean).sort(),
    ownCells: g.own.size,
    ownKeys: [...g.own],
    example: g.example ?? "",
    ...(g.exampleAttempt ? { exampleAttempt: g.exampleAttempt } : {}),
    evidence: evidenceOf(g),
    knownIssues: [...new Set(records.flatMap((c) => (c.knownIssue ? [c.knownIssue] : [])))],
    probes: [...new Set(cells.map((c) => c.probeId))].sort(),
  };
}

/** One attempt per route, the example's for its route. */
function evidenceOf(g: Group): EvidenceAttempt[] {
  const example = g.exampleAttempt;
  if (!example) return g.evidence;
  return g.evidence.map((e) =>
    e.routeId === example.routeId ? { ...example, ...(g.example ? { reason: g.example } : {}) } : e,
  );
}

/** ` (lost on 85 of 85 attempts judged)`, summed over the modes the rule took. */
function carriedFigures(
  g: Group,
  cells: CellKey[],
  notCarried: Map<string, { judged: number; lost: number }>,
): string {
  let judged = 0;
  let lost = 0;
  const seen = new Set<string>();
  const direction: Direction = g.direction ?? "request";
  for (const c of cells) {
    const key = `${c.column}\u0000${c.routeId}\u0000${c.mode}\u0000${direction}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const figures = notCarried.get(key);
    judged += figures?.judged ?? 0;
    lost += figures?.lost ?? 0;
  }
  return ` (\`${CARRIERS[direction]}\` lost on ${lost} of ${judged} main attempts)`;
}
