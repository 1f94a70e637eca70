import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../dialects/dialect.ts";
import {
  emptyRejectedBy,
  FINDING_SEVERITIES,
  SEVERITY_TABLE,
  type SeverityQuestion,
  severityOf,
  severityRank,
} from "./severity.ts";

/** One case per row at least: the question, the row that must decide it, and its severity. */
const CASES: [SeverityQuestion, string, string][] = [
  [
    { subject: "credentials.header.x-api-key", verdict: "leaked", cause: "in-auth-header" },
    "credential-leaked",
    "critical",
  ],
  [
    { subject: "messages.tool-call.id", verdict: "mangled", cause: "rewritten-linked" },
    "tool-id-rewritten-linked",
    "major",
  ],
  [
    { subject: "tool_calls[].id", verdict: "mangled", cause: "id-rewritten" },
    "tool-call-lost",
    "critical",
  ],
  [{ subject: "tool_calls[].arguments", verdict: "dropped" }, "tool-call-lost", "critical"],
  [
    { subject: "invariant.tool-arguments", verdict: "mangled", cause: "invalid-arguments" },
    "tool-call-lost",
    "critical",
  ],
  [{ subject: "messages.tool-call.id", verdict: "mangled" }, "tool-history-lost", "critical"],
  [
    { subject: "messages.tool-result.call-id", verdict: "mangled", cause: "unlinked" },
    "tool-history-lost",
    "critical",
  ],
  [{ subject: "messages.tool-result", verdict: "dropped" }, "tool-result-lost", "critical"],
  [
    { subject: "finish_reason", verdict: "mangled", cause: "erased-tool-turn" },
    "stop-erased",
    "critical",
  ],
  [
    { subject: "invariant.tool-stop", verdict: "mangled", cause: "no-tool-stop" },
    "stop-erased",
    "critical",
  ],
  [
    { subject: "stream.terminal", verdict: "invented", cause: "completion-invented" },
    "stream-closed-complete",
    "critical",
  ],
  [
    { subject: "failure.stream_end", verdict: "mangled", cause: "clean-end-after-failure" },
    "stream-closed-complete",
    "critical",
  ],
  [
    { subject: "failure.status", verdict: "mangled", cause: "status-relabelled" },
    "error-as-success",
    "critical",
  ],
  [
    { subject: "failure.error_text", verdict: "mangled", cause: "error-as-content" },
    "error-as-success",
    "critical",
  ],
  [
    { subject: "failure.retries", verdict: "dropped", cause: "success-lost" },
    "answer-lost",
    "critical",
  ],
  [{ subject: "text", verdict: "dropped" }, "answer-text-lost", "critical"],
  [{ subject: "messages", verdict: "dropped", cause: "turns-lost" }, "prompt-lost", "critical"],
  [
    { subject: "tools", verdict: "invented", cause: "empty-added", backend: "openai-chat" },
    "empty-rejected-by-target",
    "major",
  ],
  [
    {
      subject: "tools",
      verdict: "invented",
      cause: "empty-added",
      backend: "anthropic-messages",
    },
    "empty-accepted-by-target",
    "minor",
  ],
  [
    { subject: "system", verdict: "invented", cause: "empty-added", backend: "openai-chat" },
    "empty-accepted-by-target",
    "minor",
  ],
  [{ subject: "sampling.temperature", verdict: "dropped" }, "sampling-lost", "major"],
  [
    { subject: "sampling.temperature", verdict: "invented", cause: "value-added" },
    "sampling-lost",
    "major",
  ],
  [{ subject: "error.message", verdict: "dropped" }, "error-text-lost", "major"],
  [
    { subject: "failure.error_text", verdict: "dropped", cause: "error-text-lost" },
    "error-text-lost",
    "major",
  ],
  [
    { subject: "failure.status", verdict: "mangled", cause: "status-class-changed" },
    "status-changed",
    "major",
  ],
  [
    { subject: "stream.terminal", verdict: "dropped", cause: "truncated-stream" },
    "truncation-visible",
    "major",
  ],
  [
    { subject: "messages", verdict: "invented", cause: "phantom-message" },
    "behaviour-invented",
    "major",
  ],
  [
    { subject: "text", verdict: "invented", cause: "reasoning-as-text" },
    "content-invented",
    "major",
  ],
  [
    { subject: "stream.framing", verdict: "mangled", cause: "malformed-events" },
    "stream-lifecycle",
    "major",
  ],
  [
    { subject: "error.internals", verdict: "invented", cause: "internals" },
    "internals-exposed",
    "major",
  ],
  [{ subject: "usage.cache_read_tokens", verdict: "dropped" }, "accounting", "minor"],
  [{ subject: "error.type", verdict: "mangled", cause: "status-type" }, "accounting", "minor"],
  [{ subject: "messages.cache", verdict: "dropped" }, "cache-markers", "minor"],
  [
    { subject: "invariant.empty-content", verdict: "invented", cause: "empty-text" },
    "empty-content",
    "minor",
  ],
  [
    { subject: "failure.retries", verdict: "mangled", cause: "retried-non-retryable" },
    "retried-non-retryable",
    "minor",
  ],
  [{ subject: "path", verdict: "leaked" }, "default-leaked", "critical"],
  [{ subject: "tools.strict", verdict: "dropped" }, "default-lost", "major"],
  [{ subject: "path", verdict: "mangled", cause: "wrong-route" }, "default-lost", "major"],
  [{ subject: "headers.anthropic-beta", verdict: "invented" }, "default-invented", "minor"],
];

describe("severity table", () => {
  it.each(CASES)("%j is decided by %s (%s)", (question, rule, severity) => {
    expect(severityOf(question)).toMatchObject({ rule, severity });
  });

  it("has a case for every row, so no row is shadowed by one above it", () => {
    const hit = new Set(CASES.map(([, rule]) => rule));
    expect(SEVERITY_TABLE.map((r) => r.id).filter((id) => !hit.has(id))).toEqual([]);
  });

  it("gives every row a reason and a known severity, ids unique", () => {
    for (const row of SEVERITY_TABLE) {
      expect(row.reason.length, row.id).toBeGreaterThan(10);
      expect(FINDING_SEVERITIES).toContain(row.severity);
    }
    expect(new Set(SEVERITY_TABLE.map((r) => r.id)).size).toBe(SEVERITY_TABLE.length);
  });

  it("decides every silent verdict on any subject (the default rows)", () => {
    for (const verdict of ["dropped", "mangled", "invented", "leaked"] as const) {
      expect(severityOf({ subject: "extras.foo", verdict }).rule).toMatch(/^default-/);
    }
  });

  it("ranks critical before major before minor, and an unknown level last", () => {
    expect(
      ["minor", "unknown", "critical", "major"].sort((a, b) => severityRank(a) - severityRank(b)),
    ).toEqual(["critical", "major", "minor", "unknown"]);
  });
});

describe("an empty value's acceptance is the target dialect's fact", () => {
  it("reads the reference from the target's field table", () => {
    expect(emptyRejectedBy("openai-chat", "tools")).toMatch(/^https:\/\//);
    expect(emptyRejectedBy("openai-chat", "messages.tool-call")).toMatch(/^https:\/\//);
    expect(emptyRejectedBy("openai-chat", "system")).toBeUndefined();
  });

  it("is known for no other dialect's `tools` (none of their references refuses it)", () => {
    const refusing = DIALECTS.filter((d) => emptyRejectedBy(d, "tools") !== undefined);
    expect(refusing).toEqual(["openai-chat"]);
  });

  it("without a known target an empty value is minor", () => {
    expect(
      severityOf({ subject: "tools", verdict: "invented", cause: "empty-added" }),
    ).toMatchObject({
      severity: "minor",
    });
  });
});
