/**
 * The example SQL in docs/results.md, run against a two-run fixture a week apart: every
 * query must be read-only, run, and answer; the two headline questions are checked row by row.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subjectOf } from "../probes/subject.ts";
import type { Verdict } from "../probes/verdict.ts";
import { queryResultToJson, runReadOnlyQuery } from "./read-only-query.ts";
import type { ProbeRecord } from "./records.ts";
import { openStore, openStoreReadonly, type ResultsStore } from "./store.ts";
import { FIXTURE_GATEWAYS, FIXTURE_OVERRIDES, writeFixtureRun } from "./testing/fixture-run.ts";

const DOC = join(import.meta.dirname, "..", "docs", "results.md");

/** `### heading` → the first ```sql block under it. */
function docQueries(): Map<string, string> {
  const text = readFileSync(DOC, "utf8");
  const out = new Map<string, string>();
  const re = /^### (.+)\n(?:(?!^### )[\s\S])*?```sql\n([\s\S]*?)```/gm;
  for (const m of text.matchAll(re)) out.set(m[1] ?? "", m[2] ?? "");
  return out;
}

/**
 * A Messages client's `tools[].strict` dropped by one gateway: the same subject as the
 * fixture's Chat probe (`tools[].function.strict`), spelled another way.
 */
function addMessagesStrictCell(writer: ResultsStore, runId: string): void {
  const probe: ProbeRecord = {
    probeId: "am-tools-strict",
    definitionHash: "h-am-strict",
    clientDialect: "anthropic-messages",
    axis: "request",
    field: "tools[].strict",
    subject: subjectOf("anthropic-messages", "tools[].strict"),
    severity: "medium",
    definition: { id: "am-tools-strict" },
  };
  writer.putProbes([probe]);
  const cells = writer.cellWriter();
  cells.add({
    cell: {
      runId,
      column: "litellm@1.74.0",
      routeId: "anthropic-messages->openai-chat",
      probeId: probe.probeId,
      mode: "non-stream",
      clientDialect: "anthropic-messages",
      backendDialect: "openai-chat",
      definitionHash: probe.definitionHash,
      subject: probe.subject,
      verdict: "dropped",
      reason: 'tools[].strict: {"get_weather":true} → absent',
      runs: 5,
      counts: { dropped: 5 },
      determinism: 5,
      stable: true,
    },
    attempts: [],
  });
  cells.close();
}

const INVENTED_TEXT: Verdict = {
  subject: "text",
  field: "text",
  verdict: "invented",
  reason: 'text: absent → "Sure!"',
  direction: "reply",
};

let dir: string;
let store: ResultsStore;
const queries = docQueries();

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-docsql-"));
  const path = join(dir, "r.db");
  const writer = openStore(path);
  // Portkey's plain and +locked installs are two columns of one gateway in every run.
  const gateways = [
    ...FIXTURE_GATEWAYS,
    { gateway: "portkey", version: "1.15.2", column: "portkey@1.15.2", status: "ok" as const },
  ];
  writeFixtureRun(writer, {
    runId: "2026-11-23T02-10-00Z-aaaa",
    startedAt: "2026-11-23T02:10:00.000Z",
    gateways,
  });
  // A run in between that must not be taken as "last week".
  writeFixtureRun(writer, {
    runId: "2026-11-27T02-10-00Z-mmmm",
    startedAt: "2026-11-27T02:10:00.000Z",
    gateways,
  });
  writeFixtureRun(writer, {
    runId: "2026-11-30T02-10-00Z-bbbb",
    startedAt: "2026-11-30T02:10:00.000Z",
    gateways,
    versions: { portkey: "1.16.0" },
    overrides: {
      ...FIXTURE_OVERRIDES,
      "portkey@1.15.2+locked|oc-tools-strict|openai-chat->anthropic-messages|stream": {
        verdict: "preserved",
        reason: "same value",
      },
      "portkey@1.15.2+locked|am-stop-sequences|anthropic-messages->openai-chat|non-stream": {
        verdict: "dropped",
        reason: '["STOPPROBE"] → absent',
        runs: 5,
      },
      // A text nobody sent, found on a probe about the stop sequences.
      "portkey@1.15.2+locked|am-stop-sequences|anthropic-messages->openai-chat|stream": {
        verdict: "preserved",
        side: [INVENTED_TEXT],
      },
    },
  });
  addMessagesStrictCell(writer, "2026-11-30T02-10-00Z-bbbb");
  writer.close();
  store = openStoreReadonly(path);
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const ask = (heading: string) => {
  const sql = queries.get(heading);
  if (!sql) throw new Error(`docs/results.md has no SQL under "### ${heading}"`);
  return queryResultToJson(runReadOnlyQuery(store.db, sql));
};

describe("docs/results.md SQL", () => {
  it("has the example queries", () => {
    expect(queries.size).toBeGreaterThanOrEqual(6);
  });

  it.each([...queries.keys()])("%s: runs read-only and answers", (heading) => {
    expect(ask(heading).length).toBeGreaterThan(0);
  });

  it("which gateways drop tools[].strict: by subject, a Messages client's cell and a Chat client's", () => {
    expect(ask("Which gateways drop tools[].strict (latest run)")).toEqual([
      {
        column: "litellm@1.74.0",
        route_id: "anthropic-messages->openai-chat",
        mode: "non-stream",
        k_of_n: "5/5",
        known_issue: null,
      },
      {
        column: "portkey@1.16.0+locked",
        route_id: "openai-chat->anthropic-messages",
        mode: "non-stream",
        k_of_n: "5/5",
        known_issue: "Portkey-AI/gateway#1180",
      },
    ]);
  });

  it("what changed on portkey since last week: across the version bump, skipping the mid-week run, each column with its own", () => {
    const rows = ask("What changed on portkey since last week");
    expect(
      rows.map(
        (r) =>
          `${r.probe_id} ${r.mode}: ${r.before_column} ${r.before_verdict} → ${r.now_column} ${r.now_verdict}`,
      ),
    ).toEqual([
      "am-stop-sequences non-stream: portkey@1.15.2+locked preserved → portkey@1.16.0+locked dropped",
      "oc-tools-strict stream: portkey@1.15.2+locked dropped → portkey@1.16.0+locked preserved",
    ]);
  });

  it("side findings by gateway and version: the version that ran, and an attempt whose verdicts hold it", () => {
    const rows = ask("Side findings by gateway and version, each with an attempt to read");
    expect(rows).toEqual([
      {
        gateway: "portkey",
        version: "1.16.0",
        subject: "text",
        verdict: "invented",
        cause: null,
        cells: 1,
        routes: "anthropic-messages->openai-chat",
        example_attempt: expect.any(Number),
      },
    ]);
    const held = store.db
      .prepare(`SELECT probe_id, mode, phase, verdicts FROM attempts WHERE attempt_id = ?`)
      .get(rows[0]?.example_attempt) as Record<string, string>;
    expect(held).toMatchObject({ probe_id: "am-stop-sequences", mode: "stream", phase: "main" });
    expect(JSON.parse(held.verdicts ?? "[]")).toContainEqual(INVENTED_TEXT);
  });

  it("preservation per gateway agrees with the matrix and keeps the absent gateway apart", () => {
    const rows = ask("Preservation rate per gateway in the latest run");
    const ccr = rows.find((r) => r.column === "claude-code-router@2.0.0");
    expect(ccr).toMatchObject({ status: "not-run", clean: null, judged: null });
    expect(rows.find((r) => r.column === "litellm@1.74.0")).toMatchObject({
      clean: 17,
      judged: 20,
      not_measured: 1,
    });
  });
});
