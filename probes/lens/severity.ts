/**
 * How much a silent defect costs whoever relies on the gateway, from what was lost, how, and
 * why: (subject, verdict, cause), and for an empty value nobody sent, whether the target's
 * reference refuses it. Not the probe's severity: a side finding says nothing about the probe
 * it was found on, and one probe's field can be lost in ways that cost very differently (a
 * dropped `error.message` beside a status the client sees, against an upstream error turned
 * into a success).
 *
 * The table is read top to bottom and the first row that matches decides; the last rows are
 * the default by verdict. Every row says why (docs/lens.md, "Severity").
 */
import type { Dialect } from "../../dialects/dialect.ts";
import { dialectModule } from "../../dialects/registry.ts";
import type { Cause } from "../causes.ts";
import type { VerdictKind } from "../verdict.ts";

/** Most costly first: the order the headline ranks by. */
export const FINDING_SEVERITIES = ["critical", "major", "minor"] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

/** What a defect is: the subject (or a `prefix.*` family), the verdict, the cause, the target. */
export interface SeverityQuestion {
  subject: string;
  verdict: VerdictKind;
  cause?: Cause | undefined;
  /** The dialect the route speaks past the gateway, where known. */
  backend?: Dialect | undefined;
}

export interface SeverityAnswer {
  severity: FindingSeverity;
  /** The table row that decided. */
  rule: string;
  reason: string;
}

/** What a row asks of the target dialect. */
type TargetTest = "rejects-empty";

export interface SeverityRow {
  id: string;
  /** Exact subjects, or families ending in `*` (`credentials.*`); absent: any subject. */
  subjects?: readonly string[];
  verdicts?: readonly VerdictKind[];
  /** The causes it takes; `null` stands for a verdict given without a cause. Absent: any. */
  causes?: readonly (Cause | null)[];
  target?: TargetTest;
  severity: FindingSeverity;
  reason: string;
}

const LOST: readonly VerdictKind[] = ["dropped", "mangled"];
const SILENT: readonly VerdictKind[] = ["dropped", "mangled", "invented", "leaked"];

export const SEVERITY_TABLE: readonly SeverityRow[] = [
  {
    id: "credential-leaked",
    subjects: ["credentials.*"],
    verdicts: ["leaked"],
    severity: "critical",
    reason: "a client credential reached a party it was never meant for",
  },
  {
    id: "tool-id-rewritten-linked",
    verdicts: ["mangled"],
    causes: ["rewritten-linked"],
    severity: "major",
    reason:
      "a tool-call id rewritten with every result still linking to it: the conversation holds, only the id a client may log changed",
  },
  {
    id: "tool-call-lost",
    subjects: ["tool_calls[].*", "invariant.tool-arguments"],
    verdicts: SILENT,
    severity: "critical",
    reason:
      "a tool call, its name, arguments or id lost or made up: the agent runs the wrong tool, or none",
  },
  {
    id: "tool-history-lost",
    subjects: ["messages.tool-call", "messages.tool-call.*", "messages.tool-result.call-id"],
    verdicts: LOST,
    severity: "critical",
    reason:
      "a tool call of the history or the id its result links by is gone: the next turn fails or the model loses what it did",
  },
  {
    id: "tool-result-lost",
    subjects: ["messages.tool-result"],
    verdicts: LOST,
    severity: "critical",
    reason: "a tool's result is gone or no longer linked to its call",
  },
  {
    id: "stop-erased",
    subjects: ["finish_reason", "invariant.tool-stop"],
    verdicts: SILENT,
    severity: "critical",
    reason:
      "the stop reason is what an agent loop branches on: a tool turn, a truncation or a safety stop read as a natural end",
  },
  {
    id: "stream-closed-complete",
    verdicts: ["invented", "mangled"],
    causes: ["completion-invented", "clean-end-after-failure"],
    severity: "critical",
    reason:
      "a stream that was cut or failed reached the client as complete: a partial answer taken as whole",
  },
  {
    id: "error-as-success",
    verdicts: SILENT,
    causes: ["status-relabelled", "error-swallowed", "error-as-content"],
    severity: "critical",
    reason: "an upstream failure reached the client as a success, or as the answer's text",
  },
  {
    id: "answer-lost",
    verdicts: SILENT,
    causes: ["answer-lost", "success-lost"],
    severity: "critical",
    reason: "the upstream answered and the client did not get that answer",
  },
  {
    id: "answer-text-lost",
    subjects: ["text"],
    verdicts: ["dropped"],
    severity: "critical",
    reason: "the answer's text is gone while the reply says it succeeded",
  },
  {
    id: "prompt-lost",
    subjects: ["messages", "messages.text"],
    verdicts: LOST,
    severity: "critical",
    reason: "what the user wrote did not reach the model as written",
  },
  {
    id: "empty-rejected-by-target",
    verdicts: ["invented"],
    causes: ["empty-added"],
    target: "rejects-empty",
    severity: "major",
    reason:
      "an empty value nobody sent, which the target's reference refuses (OpenAI answers 400 `empty_array` to `tools: []`): every such request fails on the real provider",
  },
  {
    id: "empty-accepted-by-target",
    verdicts: ["invented"],
    causes: ["empty-added"],
    severity: "minor",
    reason:
      "an empty value nobody sent (`tools: []`, `system: []`) that the target accepts: it means what its absence means",
  },
  {
    id: "sampling-lost",
    subjects: ["sampling.*"],
    verdicts: SILENT,
    severity: "major",
    reason: "the model samples with other settings than the client asked for",
  },
  {
    id: "error-text-lost",
    subjects: ["error.message", "failure.error_text"],
    verdicts: SILENT,
    severity: "major",
    reason:
      "the client still sees a failure status but not why; where the status is lost too, its own finding is critical",
  },
  {
    id: "status-changed",
    subjects: ["error.status", "failure.status"],
    verdicts: SILENT,
    severity: "major",
    reason: "the client sees a failure, with a status that leads its retry logic astray",
  },
  {
    id: "truncation-visible",
    verdicts: ["dropped", "mangled"],
    causes: ["truncated-stream", "not-a-stream"],
    severity: "major",
    reason: "the stream is cut or absent and the client can see it is",
  },
  {
    id: "behaviour-invented",
    verdicts: ["invented"],
    causes: ["phantom-message", "tool-added", "value-added"],
    severity: "major",
    reason: "the model got a message, a tool or a setting nobody sent: it answers another request",
  },
  {
    id: "content-invented",
    subjects: ["text", "thinking", "reasoning", "refusal"],
    verdicts: ["invented"],
    severity: "major",
    reason: "the client reads content the model never produced (reasoning shown as the answer)",
  },
  {
    id: "stream-lifecycle",
    subjects: ["stream.framing", "invariant.one-lifecycle", "invariant.block-lifecycle"],
    verdicts: SILENT,
    severity: "major",
    reason: "events the client's SDK does not expect where it reads them: strict readers fail",
  },
  {
    id: "internals-exposed",
    subjects: ["error.internals"],
    verdicts: SILENT,
    severity: "major",
    reason: "stack frames or local paths of the gateway reach whoever called it",
  },
  {
    id: "accounting",
    subjects: ["usage.*", "id", "error.type", "metadata", "user", "store"],
    verdicts: SILENT,
    severity: "minor",
    reason:
      "bookkeeping (token counts, ids, a label, an error type beside its status): the answer is intact",
  },
  {
    id: "cache-markers",
    subjects: ["messages.cache", "tools.cache", "cache"],
    verdicts: SILENT,
    severity: "minor",
    reason: "a cache marker changes what a request costs, not what it answers",
  },
  {
    id: "empty-content",
    subjects: ["invariant.empty-content"],
    verdicts: SILENT,
    severity: "minor",
    reason: "an empty content item nobody sent: readers skip it",
  },
  {
    id: "retried-non-retryable",
    verdicts: SILENT,
    causes: ["retried-non-retryable"],
    severity: "minor",
    reason: "one needless retry of a request that fails the same way again",
  },
  {
    id: "default-leaked",
    verdicts: ["leaked"],
    severity: "critical",
    reason: "anything leaked is a credential where it does not belong",
  },
  {
    id: "default-lost",
    verdicts: LOST,
    severity: "major",
    reason: "a value the client set did not arrive as set",
  },
  {
    id: "default-invented",
    verdicts: ["invented"],
    severity: "minor",
    reason: "something nobody sent was added beside what was",
  },
];

/** For a verdict that is not a silent defect; the table is only asked about those. */
const NOT_A_DEFECT: SeverityAnswer = {
  severity: "minor",
  rule: "not-a-defect",
  reason: "not a silent defect",
};

function subjectMatches(patterns: readonly string[], subject: string): boolean {
  return patterns.some((p) =>
    p.endsWith("*") ? subject.startsWith(p.slice(0, -1)) : subject === p,
  );
}

/** The reference by which `backend` refuses an empty value of `subject`, if one does. */
export function emptyRejectedBy(backend: Dialect, subject: string): string | undefined {
  return dialectModule(backend).fields.rows.find((r) => r.attribute === subject)?.rejectsEmpty;
}

function targetMatches(test: TargetTest, q: SeverityQuestion): boolean {
  switch (test) {
    case "rejects-empty":
      return q.backend !== undefined && emptyRejectedBy(q.backend, q.subject) !== undefined;
  }
}

/** The row of the table that decides a question. */
export function severityRowOf(q: SeverityQuestion): SeverityRow | undefined {
  return SEVERITY_TABLE.find(
    (row) =>
      (row.subjects === undefined || subjectMatches(row.subjects, q.subject)) &&
      (row.verdicts === undefined || row.verdicts.includes(q.verdict)) &&
      (row.causes === undefined || row.causes.includes(q.cause ?? null)) &&
      (row.target === undefined || targetMatches(row.target, q)),
  );
}

export function severityOf(q: SeverityQuestion): SeverityAnswer {
  const row = severityRowOf(q);
  if (!row) return NOT_A_DEFECT;
  return { severity: row.severity, rule: row.id, reason: row.reason };
}

/** 0 for the most costly; the headline sorts by it. */
export function severityRank(severity: string): number {
  const i = (FINDING_SEVERITIES as readonly string[]).indexOf(severity);
  return i < 0 ? FINDING_SEVERITIES.length : i;
}

/** The more costly of two. */
export function worseSeverity(a: FindingSeverity, b: FindingSeverity): FindingSeverity {
  return severityRank(a) <= severityRank(b) ? a : b;
}

/**
 * A failed delivery (results/defects.ts): the client got a 5xx or nothing while the upstream
 * answered. The client can tell it failed; the answer that existed is lost.
 */
export const FAILED_DELIVERY_SEVERITY: SeverityAnswer = {
  severity: "major",
  rule: "failed-delivery",
  reason:
    "the client sees the failure (a 5xx or no answer), but an answer the upstream gave is lost",
};
