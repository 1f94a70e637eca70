import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cellToken, renderMarkdownReport } from "./markdown-report.ts";
import type { CellRecord } from "./records.ts";
import { runSummaryOf, writeRunOutputs } from "./run-outputs.ts";
import { loadRunView, type RunView } from "./run-view.ts";
import { openStore, type ResultsStore } from "./store.ts";
import { writeFixtureRun } from "./testing/fixture-run.ts";

const RUN = "2026-11-30T02-10-00Z-ab12";
let dir: string;
let store: ResultsStore;
let view: RunView;
let md: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-md-"));
  store = openStore(join(dir, "r.db"));
  writeFixtureRun(store, { runId: RUN, startedAt: "2026-11-30T02:10:00.000Z" });
  view = loadRunView(store);
  md = renderMarkdownReport(view);
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The Markdown table row whose first cell is `first`. */
function row(text: string, first: string): string[] {
  const line = text.split("\n").find((l) => l.startsWith(`| ${first} |`));
  if (!line) throw new Error(`no row ${first}`);
  return line.split(" | ").map((c) => c.replace(/^\| |\s*\|$/g, "").trim());
}

describe("preservation per gateway", () => {
  it("gives each column its rate with the denominator, error and not-run apart", () => {
    // portkey: 20 cells, 3 silent → 17/20.
    expect(row(md, "portkey@1.15.2+locked")).toEqual([
      "portkey@1.15.2+locked",
      "ran",
      "85.0% (17/20)",
      "17",
      "0",
      "3",
      "0",
      "0",
      "0",
    ]);
    // litellm: 20 cells, one not-run (budget) left out of the denominator; n/e counted clean.
    expect(row(md, "litellm@1.74.0")).toEqual([
      "litellm@1.74.0",
      "ran",
      "89.5% (17/19)",
      "16",
      "1",
      "1",
      "1",
      "0",
      "1",
    ]);
    // direct: the transport error is counted apart, not as clean.
    expect(row(md, "direct@0.1.0").slice(2)).toEqual([
      "100.0% (9/9)",
      "9",
      "0",
      "0",
      "0",
      "1",
      "0",
    ]);
  });

  it("never shows an absent gateway like a clean one", () => {
    const ccr = row(md, "claude-code-router@2.0.0");
    expect(ccr[1]).toBe("**not-run**: binary ccr not on PATH");
    expect(ccr[2]).toBe("not measured");
    const summary = runSummaryOf(view).columns.find((c) => c.gateway === "claude-code-router");
    expect(summary).toMatchObject({ status: "not-run", judged: 0, preservationRate: null });
    expect(md).toContain(
      "- **Columns not run** (no rate, no cells counted as clean): claude-code-router@2.0.0: not-run, binary ccr not on PATH.",
    );
  });

  it("names a column that did not run once, also when its reason starts with the column", () => {
    const runs = view.gatewayRuns.map((g) =>
      g.column === "claude-code-router@2.0.0"
        ? { ...g, reason: "claude-code-router@2.0.0: binary ccr not on PATH" }
        : g,
    );
    expect(renderMarkdownReport({ ...view, gatewayRuns: runs })).toContain(
      "- **Columns not run** (no rate, no cells counted as clean): claude-code-router@2.0.0: not-run, binary ccr not on PATH.",
    );
  });

  it("shows the planned cells of a gateway that did not run as not-run, never as ok", () => {
    const planned = view.cells
      .filter((c) => c.column === "litellm@1.74.0")
      .map((c) => ({
        ...c,
        column: "claude-code-router@2.0.0",
        verdict: "not-run" as const,
        reason: "gateway not run",
        runs: 0,
        determinism: 0,
        counts: {},
      }));
    const text = renderMarkdownReport({ ...view, cells: [...view.cells, ...planned] });
    expect(row(text, "claude-code-router@2.0.0").slice(1)).toEqual([
      "**not-run**: binary ccr not on PATH",
      "not measured",
      "0",
      "0",
      "0",
      "0",
      "0",
      "20",
    ]);
    // The scope says, before any number, that it did not run and why; its cells are counted
    // as not measured, never as clean.
    expect(text).toContain(
      "- **Columns not run** (no rate, no cells counted as clean): claude-code-router@2.0.0: not-run, binary ccr not on PATH.",
    );
    expect(text).toMatch(
      /\| claude-code-router@2\.0\.0 \| not-run \| 20 \| 4 \| gateway not run \|/,
    );
    const header = text
      .split("\n")
      .find((l) => l.startsWith("| field (probe) | claude-code-router@2.0.0 → anthropic-messages"));
    expect(header).toBeDefined();
    expect(row(text, "`tools[].function.strict` (oc-tools-strict)")[1]).toBe("not-run");
    // Its routes are not listed one by one as failing routes: the column did not run.
    expect(text).toContain("- **Routes offered but not measured**: none.");
  });
});

describe("per-axis tables", () => {
  it("puts fields in rows and gateway → backend in columns, with k/N, control and known issue", () => {
    const header = md
      .split("\n")
      .find((l) => l.startsWith("| field (probe) | direct@0.1.0 → openai-chat"));
    expect(header).toBe(
      "| field (probe) | direct@0.1.0 → openai-chat | litellm@1.74.0 → anthropic-messages | litellm@1.74.0 → openai-chat | portkey@1.15.2+locked → anthropic-messages | portkey@1.15.2+locked → openai-chat |",
    );
    expect(row(md, "`tools[].function.strict` (oc-tools-strict)")).toEqual([
      "`tools[].function.strict` (oc-tools-strict)",
      "ok",
      "ns n/e · s ok",
      "ok",
      "**DROPPED** 5/5 ⊕ [Portkey-AI/gateway#1180]",
      "ok",
    ]);
    const parallel = row(
      md,
      "`tool_choice.disable_parallel_tool_use` (am-disable-parallel-tool-use)",
    );
    expect(parallel[5]).toBe("ns **MANGLED** 3/5 · s ok");
  });

  it("gives every route its own column, also two routes to one backend dialect", () => {
    // Portkey's plain Chat passthrough and its Ollama-flavoured route both speak openai-chat
    // to the mock; the first preserves the field, the second drops it.
    const plain = view.cells.find(
      (c) =>
        c.column === "portkey@1.15.2+locked" &&
        c.probeId === "oc-tools-strict" &&
        c.routeId === "openai-chat->openai-chat",
    );
    if (!plain) throw new Error("fixture lacks the plain route cell");
    const flavoured: CellRecord = {
      ...plain,
      routeId: "openai-chat->openai-chat:ollama",
      verdict: "dropped",
      reason: "tools[].function.strict: true → absent",
    };
    const text = renderMarkdownReport({ ...view, cells: [...view.cells, flavoured] });
    const header = text
      .split("\n")
      .find((l) => l.startsWith("| field (probe) | direct@0.1.0 → openai-chat"));
    expect(header).toContain(
      "| portkey@1.15.2+locked → openai-chat | portkey@1.15.2+locked → openai-chat:ollama |",
    );
    const strict = row(text, "`tools[].function.strict` (oc-tools-strict)");
    expect(strict.slice(-2)).toEqual(["ok", "ns **DROPPED**"]);
  });

  it("orders axes as DESIGN.md does and marks a route not offered with ·", () => {
    const axes = md.split("\n").filter((l) => l.startsWith("### Axis: "));
    expect(axes).toEqual(["### Axis: request", "### Axis: credential", "### Axis: response"]);
    // direct has no translated route: its only column per client dialect is the native one.
    expect(md).not.toContain("direct@0.1.0 → openai-chat | direct@0.1.0 → anthropic-messages");
  });

  it("spells every verdict token the legend explains", () => {
    const legend = md.slice(md.indexOf("## B. Field by field"), md.indexOf("### Axis: "));
    for (const token of [
      "`ok`",
      "`n/e`",
      "`DROPPED`",
      "`MANGLED`",
      "`LEAKED`",
      "`rejected`",
      "`error`",
      "`not-run`",
      "⊕",
      "⊖",
    ]) {
      expect(legend).toContain(token);
    }
  });
});

describe("grid", () => {
  it("gives every route a row and every axis a column, counting defects and unmeasured cells", () => {
    expect(md).toContain("| column | route | request | credential | response | side | no answer |");
    expect(md).toContain(
      "| portkey@1.15.2+locked | openai-chat->anthropic-messages | 0/2 **2✗** | · | 2/2 | · | · |",
    );
    // litellm's finish_reason: one rejected, one not run (budget).
    expect(md).toContain(
      "| litellm@1.74.0 | openai-chat->anthropic-messages | 2/2 | · | 0/1 1r +1? | · | · |",
    );
  });
});

describe("positive controls", () => {
  it("counts every known issue the probes cite, the unmeasured ones with why", () => {
    expect(md).toContain(
      "- **Positive controls** (known issues this run's probes cite): 5: 2 reproduced · 1 not reproduced · 2 not measured (1 × bifrost is not in this run; 1 × claude-code-router@2.0.0 not-run). Appendix C.",
    );
    const appendix = md.slice(md.indexOf("## C. Positive controls"), md.indexOf("## D."));
    const states = appendix
      .split("\n")
      .filter((l) => /^\| (reproduced|not reproduced|not measured) \|/.test(l))
      .map((l) => l.split(" | ").slice(0, 4).join(" | "));
    expect(states).toEqual([
      "| reproduced | [BerriAI/litellm#9125](https://github.com/BerriAI/litellm/issues/9125) | litellm | am-stop-sequences",
      "| reproduced | [Portkey-AI/gateway#1180](https://github.com/Portkey-AI/gateway/issues/1180) | portkey | oc-tools-strict",
      "| not reproduced | [BerriAI/litellm#7001](https://github.com/BerriAI/litellm/issues/7001) | litellm | am-credential-x-api-key",
      "| not measured | [maximhq/bifrost#5887](https://github.com/maximhq/bifrost/issues/5887) | bifrost | am-stop-sequences",
      "| not measured | [musistudio/llms#9](https://github.com/musistudio/llms/issues/9) | claude-code-router | oc-tools-strict",
    ]);
  });
});

describe("cellToken", () => {
  const base: CellRecord = {
    runId: RUN,
    column: "g@1",
    routeId: "a->b",
    probeId: "p",
    mode: "stream",
    subject: "sampling.stop",
    clientDialect: "openai-chat",
    backendDialect: "gemini",
    definitionHash: "h",
    verdict: "leaked",
    reason: "canary in x-goog-api-key",
    runs: 5,
    counts: { leaked: 5 },
    determinism: 5,
    stable: true,
  };
  it("marks a control that lost the field too, and escapes pipes in references", () => {
    expect(cellToken({ ...base, controlVerdict: "dropped", knownIssue: "a|b" })).toBe(
      "**LEAKED** 5/5 ⊖ [a\\|b]",
    );
    expect(
      cellToken({ ...base, runs: 1, determinism: 1, verdict: "error", controlVerdict: "error" }),
    ).toBe("error ⊘");
  });
});

describe("default outputs", () => {
  it("writes MATRIX.md and summary.json with counts per column and verdict", () => {
    const out = join(dir, "out");
    const paths = writeRunOutputs(store, undefined, out);
    expect(readFileSync(paths.matrix, "utf8")).toBe(md);
    const summary = JSON.parse(readFileSync(paths.summary, "utf8"));
    expect(summary.runId).toBe(RUN);
    const litellm = summary.columns.find((c: { column: string }) => c.column === "litellm@1.74.0");
    expect(litellm.counts).toMatchObject({
      preserved: 16,
      "no-equivalent": 1,
      dropped: 1,
      rejected: 1,
      "not-run": 1,
      error: 0,
    });
    expect(summary.totals.cells).toBe(view.cells.length);
  });
});
