import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Verdict } from "../probes/verdict.ts";
import { type ColumnHeadline, headlineOf } from "./defects.ts";
import {
  CONTROL_NOT_CLEAN,
  columnHeading,
  headlineRows,
  renderHeadline,
} from "./headline-section.ts";
import { APPENDIX_HEADING, renderMarkdownReport } from "./markdown-report.ts";
import { factsOfView, type ReportFacts } from "./report-facts.ts";
import { loadRunView, type RunView } from "./run-view.ts";
import { openStore, type ResultsStore } from "./store.ts";
import { FIXTURE_OVERRIDES, type Overrides, writeFixtureRun } from "./testing/fixture-run.ts";

const RUN = "2026-12-02T02-10-00Z-dfct";
const PORTKEY = "portkey@1.15.2+locked";
const LITELLM = "litellm@1.74.0";
const DIRECT = "direct@0.1.0";

const invented: Verdict = {
  subject: "text",
  field: "text",
  verdict: "invented",
  reason: 'text: absent → "Sure!"',
  direction: "reply",
};
const finishDropped: Verdict = {
  subject: "finish_reason",
  field: "finish_reason",
  verdict: "dropped",
  reason: 'finish_reason: "stop" → absent',
  direction: "reply",
};
const emptyTools: Verdict = {
  subject: "tools",
  field: "tools",
  verdict: "invented",
  cause: "empty-added",
  reason: "tools: absent → tools []",
  direction: "request",
};
const leaked: Verdict = {
  subject: "credentials.header.x-api-key",
  field: "credentials.header.x-api-key",
  verdict: "leaked",
  reason: "x-api-key: [REDACTED] → forwarded header x-api-key",
  direction: "request",
};

// Portkey's reply invents a text on three probes about other things; direct's stream cells
// lost a stop reason; litellm leaks a key on the route whose requests lose their messages.
const overrides: Overrides = {
  ...FIXTURE_OVERRIDES,
  [`${PORTKEY}|am-stop-sequences|anthropic-messages->openai-chat|non-stream`]: {
    verdict: "preserved",
    side: [invented],
  },
  [`${PORTKEY}|am-stop-sequences|anthropic-messages->openai-chat|stream`]: {
    verdict: "preserved",
    side: [invented],
  },
  [`${PORTKEY}|am-credential-x-api-key|anthropic-messages->openai-chat|stream`]: {
    verdict: "preserved",
    side: [invented],
  },
  // `tools: []` nobody sent, to Chat (whose reference refuses it) and to Messages.
  [`${PORTKEY}|oc-reply-finish-length|openai-chat->openai-chat|non-stream`]: {
    verdict: "preserved",
    side: [emptyTools],
  },
  [`${PORTKEY}|oc-reply-finish-length|openai-chat->anthropic-messages|non-stream`]: {
    verdict: "preserved",
    side: [emptyTools],
  },
  [`${PORTKEY}|oc-reply-finish-length|openai-chat->anthropic-messages|stream`]: {
    verdict: "preserved",
    side: [emptyTools],
  },
  [`${DIRECT}|oc-tools-strict|openai-chat->openai-chat|stream`]: {
    verdict: "preserved",
    side: [finishDropped],
  },
  [`${LITELLM}|am-disable-parallel-tool-use|anthropic-messages->openai-chat|stream`]: {
    verdict: "preserved",
    side: [leaked],
  },
};

let dir: string;
let store: ResultsStore;
let view: RunView;
let facts: ReportFacts;
let heads: ColumnHeadline[];

const headOf = (column: string) => heads.find((h) => h.column === column) as ColumnHeadline;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-defects-"));
  store = openStore(join(dir, "r.db"));
  writeFixtureRun(store, { runId: RUN, startedAt: "2026-12-02T02:10:00.000Z", overrides });
  view = loadRunView(store, RUN);
  const directStream = view.cells.filter((c) => c.column === DIRECT && c.mode === "stream");
  facts = {
    ...factsOfView(view),
    // direct's streams: the client got a 500 while the mock answered 200.
    deliveries: directStream.map((c) => ({
      column: c.column,
      routeId: c.routeId,
      probeId: c.probeId,
      mode: c.mode,
      clientStatus: 500,
      upstreamStatus: 200,
    })),
    // litellm's Messages-to-Chat streams: the forwarded requests had no messages.
    carriers: [
      {
        column: LITELLM,
        routeId: "anthropic-messages->openai-chat",
        mode: "stream",
        direction: "request",
        judged: 3,
        lost: 2,
      },
    ],
  };
  heads = headlineOf(facts);
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the headline's defects", () => {
  it("groups a side finding on many probes into one defect, ranked by the severity table", () => {
    const portkey = headOf(PORTKEY);
    expect(
      portkey.defects.map((d) => [d.title, d.severity, d.severityRule, d.cells.length, d.ownCells]),
    ).toEqual([
      // Major first, then by cells; the empty `tools` is major only on the route to Chat,
      // whose reference refuses it (dialects/openai-chat/fields.ts), and minor to Messages.
      ["invented `text`", "major", "content-invented", 3, 0],
      ["dropped `tools.strict`", "major", "default-lost", 2, 2],
      ["invented `tools` (empty-added)", "major", "empty-rejected-by-target", 1, 0],
      ["mangled `parallel-tool-calls` (malformed)", "major", "default-lost", 1, 1],
      ["invented `tools` (empty-added)", "minor", "empty-accepted-by-target", 2, 0],
    ]);
    const empty = portkey.defects.filter((d) => d.title === "invented `tools` (empty-added)");
    expect(empty.map((d) => d.routes)).toEqual([
      ["openai-chat->openai-chat"],
      ["openai-chat->anthropic-messages"],
    ]);
    const text = portkey.defects.find((d) => d.title === "invented `text`");
    expect(text?.example).toBe('text: absent → "Sure!"');
    expect(text?.probes).toEqual(["am-credential-x-api-key", "am-stop-sequences"]);
    const strict = portkey.defects.find((d) => d.title === "dropped `tools.strict`");
    expect(strict?.knownIssues).toEqual(["Portkey-AI/gateway#1180"]);
  });

  it("ranks a leak and a lost prompt before a dropped value, whatever the probes' severity", () => {
    const litellm = headOf(LITELLM);
    expect(litellm.defects.map((d) => d.severity)).toEqual(
      [...litellm.defects.map((d) => d.severity)].sort(
        (a, b) =>
          ["critical", "major", "minor"].indexOf(a) - ["critical", "major", "minor"].indexOf(b),
      ),
    );
    const leak = litellm.defects.find((d) => d.title === "leaked `credentials.header.x-api-key`");
    expect(leak).toMatchObject({ severity: "critical", severityRule: "credential-leaked" });
  });

  it("keeps each severity's first row in a column's headline, the rest by rank", () => {
    const portkey = headOf(PORTKEY).defects;
    // Five major defects and one minor: three rows keep the minor one.
    expect(headlineRows(portkey, 3).map((d) => [d.title, d.severity])).toEqual([
      ["invented `text`", "major"],
      ["dropped `tools.strict`", "major"],
      ["invented `tools` (empty-added)", "minor"],
    ]);
    expect(headlineRows(portkey, 10)).toEqual(portkey);
    expect(columnHeading(headOf(PORTKEY))).toMatch(
      /^portkey@1\.15\.2\+locked: 5 distinct silent defects \(4 major, 1 minor\)/,
    );
  });

  it("leads from a defect's example to the attempt that shows it, in the headline and the appendix", () => {
    const text = headOf(PORTKEY).defects.find((d) => d.title === "invented `text`");
    const example = text?.exampleAttempt;
    expect(example).toBeDefined();
    // The attempt is one of the defect's cells, and its stored verdict list holds the finding.
    const stored = store.db
      .prepare(
        `SELECT "column", route_id, probe_id, mode, phase, verdicts FROM attempts WHERE attempt_id = ?`,
      )
      .get(example?.attemptId) as Record<string, string>;
    expect(stored).toMatchObject({
      column: PORTKEY,
      route_id: example?.routeId,
      probe_id: example?.probeId,
      mode: example?.mode,
      phase: "main",
    });
    expect(JSON.parse(stored.verdicts ?? "[]")).toContainEqual(invented);
    const md = renderMarkdownReport(facts);
    expect(md).toContain("`npx gatecheck export --attempt-id N` writes its exchange");
    expect(md).toContain(`| #${example?.attemptId}: text: absent → "Sure!" |`);
    expect(md).toContain(
      `| #${example?.attemptId} ${example?.probeId} · ${example?.routeId} · ${example?.mode === "stream" ? "s" : "ns"}: text: absent → "Sure!" |`,
    );
  });

  it("names a failed delivery and never lets its column read as clean", () => {
    const direct = headOf(DIRECT);
    expect(direct.defects.map((d) => [d.rule, d.cells.length])).toEqual([["failed-delivery", 5]]);
    // The stop reason lost on a cell whose client got a 500 is that failure, not a defect of its own.
    expect(direct.defects[0]?.subjects).toContain("finish_reason");
    expect(columnHeading(direct)).toBe(
      `${DIRECT}: no silent defect in 9 judged cells · failed delivery on 5 cells · 5 of 10 cells affected`,
    );
    expect(renderHeadline(heads).join("\n")).toContain(
      "| **failed delivery: the client got 500 while the upstream answered with a success; reply fields not judged there** | 5 | 0 | 2 routes · s |",
    );
  });

  it("marks the control column when it is not clean: a defect there is a rule to fix", () => {
    expect(heads.filter((h) => h.control).map((h) => h.column)).toEqual([DIRECT]);
    const headline = renderHeadline(heads);
    const mark = headline.indexOf(CONTROL_NOT_CLEAN);
    expect(mark).toBeGreaterThan(headline.indexOf(`### ${columnHeading(headOf(DIRECT))}`));
    expect(headline.filter((l) => l === CONTROL_NOT_CLEAN)).toHaveLength(1);
    // Clean, it says nothing more than any clean column.
    const clean = heads.map((h) => (h.control ? { ...h, defects: [], withDefect: 0 } : h));
    expect(renderHeadline(clean)).not.toContain(CONTROL_NOT_CLEAN);
  });

  it("gives a direction whose carrier was lost one defect, leaks apart", () => {
    const litellm = headOf(LITELLM);
    const titles = litellm.defects.map((d) => d.title);
    expect(titles).toContain(
      "requests on anthropic-messages->openai-chat reach the backend without their `messages`: every request-side loss there is this one (`messages` lost on 2 of 3 main attempts)",
    );
    // The dropped stop sequence on that route is explained by it, not listed on its own.
    expect(titles).not.toContain("dropped `sampling.stop`");
    expect(titles).toContain("leaked `credentials.header.x-api-key`");
  });

  it("puts the headline and the grid before the appendix, the field matrix after it", () => {
    const md = renderMarkdownReport(facts);
    const lines = md.split("\n");
    const appendix = lines.indexOf(APPENDIX_HEADING);
    expect(appendix).toBeGreaterThan(0);
    const at = (heading: string) => lines.findIndex((l) => l.startsWith(heading));
    expect(at("## Scope")).toBeLessThan(at("## Headline"));
    expect(at("## Headline")).toBeLessThan(at("## Grid"));
    expect(at("## Grid")).toBeLessThan(appendix);
    expect(at("## B. Field by field")).toBeGreaterThan(appendix);
    expect(at("### Axis: request")).toBeGreaterThan(appendix);
  });
});
