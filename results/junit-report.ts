/**
 * JUnit XML for CI: one test suite per gateway column, one test case per cell, and one per
 * side finding (a silent defect on a subject the cell's probe did not ask about: junit-side-
 * cases.ts). A silent defect fails unless an accepted-losses entry covers it; `error` and `not-run` cells are
 * skipped (not measured is not a pass), and a gateway that did not run at all gets one
 * skipped case saying why, so it never looks like a green suite.
 */
import { severityOf } from "../probes/lens/severity.ts";
import { VERDICT_CLASS } from "../probes/verdict.ts";
import { type AcceptedLoss, findAcceptance } from "./accept-file.ts";
import { sideFindingCases } from "./junit-side-cases.ts";
import type { LoopRecord } from "./loop-records.ts";
import type { CellRecord } from "./records.ts";
import { probeOfCell, type RunView } from "./run-view.ts";

export interface JunitResult {
  xml: string;
  tests: number;
  failures: number;
  skipped: number;
  /** Silent defects that passed because an entry accepted them. */
  accepted: number;
  /** Accept entries that matched no cell: the loss is gone or the entry is stale. */
  unusedAccepts: AcceptedLoss[];
}

interface Case {
  name: string;
  classname: string;
  failure?: { type: string; message: string; body: string };
  skipped?: string;
  systemOut?: string;
  /** `<properties>` of the case: a silent defect's severity and the table row deciding it. */
  properties?: Record<string, string>;
}

export function renderJunit(view: RunView, accepts: readonly AcceptedLoss[] = []): JunitResult {
  const used = new Set<AcceptedLoss>();
  const suites = new Map<string, Case[]>();
  for (const g of view.gatewayRuns) suites.set(g.column, []);
  let accepted = 0;
  for (const cell of view.cells) {
    const { field } = probeOfCell(view, cell);
    const c = cellCase(cell, field);
    if (c.failure) {
      const acceptance = findAcceptance(accepts, cell, field);
      if (acceptance) {
        used.add(acceptance);
        accepted += 1;
        c.systemOut = `accepted loss (${c.failure.message}): ${acceptance.reason}`;
        c.failure = undefined;
      }
    }
    const list = suites.get(cell.column) ?? [];
    suites.set(cell.column, list);
    list.push(c);
  }
  for (const side of sideFindingCases(view.findings, accepts)) {
    const c: Case = {
      classname: side.classname,
      name: side.name,
      failure: { type: side.verdict, message: side.message, body: side.body },
      properties: { severity: side.severity, "severity-rule": side.severityRule },
    };
    if (side.acceptance) {
      used.add(side.acceptance);
      accepted += 1;
      c.systemOut = `accepted loss (${side.message}): ${side.acceptance.reason}`;
      c.failure = undefined;
    }
    const list = suites.get(side.column) ?? [];
    suites.set(side.column, list);
    list.push(c);
  }
  for (const g of view.gatewayRuns) {
    const list = suites.get(g.column) ?? [];
    if (g.status !== "ok" && list.length === 0) {
      list.push({
        classname: `gatecheck.${g.column}`,
        name: "gateway run",
        skipped: `gateway ${g.status}: ${g.reason ?? "no reason given"}`,
      });
    }
  }
  for (const loop of view.loops ?? []) {
    const name = `agent loops ${loop.column}`;
    const list = suites.get(name) ?? [];
    suites.set(name, list);
    list.push(loopCase(loop));
  }
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  const body: string[] = [];
  for (const [column, cases] of [...suites.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const f = cases.filter((c) => c.failure).length;
    const s = cases.filter((c) => c.skipped !== undefined).length;
    tests += cases.length;
    failures += f;
    skipped += s;
    body.push(
      `  <testsuite name="${attr(column)}" tests="${cases.length}" failures="${f}" errors="0" skipped="${s}">`,
    );
    for (const c of cases) body.push(...caseXml(c));
    body.push("  </testsuite>");
  }
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="gatecheck run ${attr(view.run.id)}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}">`,
    ...body,
    "</testsuites>",
    "",
  ].join("\n");
  const unusedAccepts = accepts.filter((a) => !used.has(a));
  return { xml, tests, failures, skipped, accepted, unusedAccepts };
}

function cellCase(cell: CellRecord, field: string): Case {
  const classname = `gatecheck.${cell.column}.${cell.routeId}`;
  const name = `${field} [${cell.probeId}] ${cell.mode}`;
  const kN = cell.runs > 1 ? ` ${cell.determinism}/${cell.runs}` : "";
  const message = `${cell.verdict}${kN}: ${cell.reason}`;
  const cls = VERDICT_CLASS[cell.verdict];
  if (cls === "silent") {
    const severity = severityOf({
      subject: cell.subject,
      verdict: cell.verdict,
      cause: cell.cause,
      backend: cell.backendDialect,
    });
    const details = [
      `verdict: ${cell.verdict}${kN}${cell.stable ? "" : " (not stable)"}`,
      `severity: ${severity.severity} (${severity.rule}): ${severity.reason}`,
      `reason: ${cell.reason}`,
      ...(cell.cause ? [`cause: ${cell.cause}`] : []),
      ...(cell.controlVerdict ? [`control leg: ${cell.controlVerdict}`] : []),
      ...(cell.knownIssue ? [`known issue: ${cell.knownIssue}`] : []),
    ];
    return {
      classname,
      name,
      failure: { type: cell.verdict, message, body: details.join("\n") },
      properties: { severity: severity.severity, "severity-rule": severity.rule },
    };
  }
  if (cls === "not-a-finding") return { classname, name, skipped: message };
  return { classname, name, systemOut: message };
}

/** A loop that broke fails; one not run is skipped; losses of a completed loop are its output. */
function loopCase(loop: LoopRecord): Case {
  const classname = `gatecheck.loops.${loop.column}.${loop.routeId}`;
  const name = `agent loop ${loop.variant}`;
  if (loop.status === "not-run") return { classname, name, skipped: loop.reason ?? "not run" };
  if (loop.status === "broke") {
    const message = `broke at turn ${loop.turn}: ${loop.cause}`;
    const body = [message, `reason: ${loop.reason ?? ""}`, ...loop.losses.map((l) => `lost: ${l}`)];
    return {
      classname,
      name,
      failure: { type: loop.cause ?? "broke", message, body: body.join("\n") },
    };
  }
  return {
    classname,
    name,
    ...(loop.losses.length > 0 ? { systemOut: `completed; lost: ${loop.losses.join("; ")}` } : {}),
  };
}

function caseXml(c: Case): string[] {
  const open = `    <testcase classname="${attr(c.classname)}" name="${attr(c.name)}"`;
  const inner: string[] = [];
  if (c.failure) {
    inner.push(
      `      <failure type="${attr(c.failure.type)}" message="${attr(c.failure.message)}">${text(c.failure.body)}</failure>`,
    );
  }
  if (c.skipped !== undefined) inner.push(`      <skipped message="${attr(c.skipped)}"/>`);
  // After the verdict's own element: readers that look for the failure first still find it.
  if (c.properties) {
    inner.push("      <properties>");
    for (const [name, value] of Object.entries(c.properties)) {
      inner.push(`        <property name="${attr(name)}" value="${attr(value)}"/>`);
    }
    inner.push("      </properties>");
  }
  if (c.systemOut) inner.push(`      <system-out>${text(c.systemOut)}</system-out>`);
  if (inner.length === 0) return [`${open}/>`];
  return [`${open}>`, ...inner, "    </testcase>"];
}

/** XML 1.0 cannot carry most C0 control characters at all, escaped or not. */
function stripInvalid(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd");
}

function text(s: string): string {
  return stripInvalid(s).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function attr(s: string): string {
  return text(s).replaceAll('"', "&quot;").replaceAll("\n", "&#10;");
}
