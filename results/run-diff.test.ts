import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Verdict, VerdictKind } from "../probes/verdict.ts";
import type { CellRecord } from "./records.ts";
import { diffRuns, formatRunDiff } from "./run-diff.ts";
import { loadRunDiff } from "./run-diff-io.ts";
import { loadRunView, type RunView } from "./run-view.ts";
import { openStore, type ResultsStore } from "./store.ts";
import { FIXTURE_GATEWAYS, FIXTURE_OVERRIDES, writeFixtureRun } from "./testing/fixture-run.ts";

let dir: string;
let store: ResultsStore;
const A = "2026-11-23T02-10-00Z-aaaa";
const B = "2026-11-30T02-10-00Z-bbbb";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-diff-"));
  store = openStore(join(dir, "r.db"));
  writeFixtureRun(store, { runId: A, startedAt: "2026-11-23T02:10:00.000Z" });
  // A week later: portkey upgraded, one cell regressed, one fixed, one changed kind.
  const overrides = { ...FIXTURE_OVERRIDES };
  overrides["portkey@1.15.2+locked|am-stop-sequences|anthropic-messages->openai-chat|stream"] = {
    verdict: "dropped",
    reason: '["STOPPROBE"] → absent',
    runs: 5,
  };
  delete overrides["litellm@1.74.0|am-stop-sequences|anthropic-messages->openai-chat|stream"];
  overrides[
    "portkey@1.15.2+locked|am-disable-parallel-tool-use|anthropic-messages->openai-chat|non-stream"
  ] = {
    verdict: "dropped",
    reason: "absent",
    runs: 5,
  };
  writeFixtureRun(store, {
    runId: B,
    startedAt: "2026-11-30T02:10:00.000Z",
    overrides,
    versions: { portkey: "1.16.0" },
  });
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const describeChange = (c: {
  gateway: string;
  probeId: string;
  mode: string;
  before?: { verdict: string };
  after?: { verdict: string };
}) =>
  `${c.gateway} ${c.probeId} ${c.mode}: ${c.before?.verdict ?? "absent"} → ${c.after?.verdict ?? "absent"}`;

describe("diffRuns", () => {
  it("matches cells across a version bump and names regressions, new defects and fixes", () => {
    const diff = diffRuns(loadRunView(store, A), loadRunView(store, B));
    expect(diff.compared).toBe(50);
    expect(diff.regressions.map(describeChange)).toEqual([
      "portkey am-stop-sequences stream: preserved → dropped",
    ]);
    expect(diff.newSilent.map(describeChange)).toEqual([
      "portkey am-stop-sequences stream: preserved → dropped",
    ]);
    expect(diff.fixed.map(describeChange)).toEqual([
      "litellm am-stop-sequences stream: dropped → preserved",
    ]);
    expect(diff.otherChanges.map(describeChange)).toEqual([
      "portkey am-disable-parallel-tool-use non-stream: mangled → dropped",
    ]);
    expect(diff.gatewayChanges).toEqual([
      { gateway: "portkey+locked", before: "1.15.2", after: "1.16.0" },
    ]);
    const text = formatRunDiff(diff);
    // Each line and each section carries the defect's severity (probes/lens/severity.ts).
    expect(text).toContain("## Regressions: clean → silent defect (1) · 1 major");
    expect(text).toContain("## Fixed: silent defect → clean (1) · 1 major");
    expect(diff.regressions[0]?.after?.severity).toBe("major");
    expect(diff.fixed[0]?.before?.severity).toBe("major");
    expect(text).toContain(
      '- [major] portkey@1.15.2+locked → portkey@1.16.0+locked anthropic-messages->openai-chat stream `stop_sequences` (am-stop-sequences): preserved → dropped 5/5: ["STOPPROBE"] → absent',
    );
  });

  it("the reverse direction turns fixes into regressions", () => {
    const diff = diffRuns(loadRunView(store, B), loadRunView(store, A));
    expect(diff.regressions.map(describeChange)).toEqual([
      "litellm am-stop-sequences stream: preserved → dropped",
    ]);
    expect(diff.fixed.map(describeChange)).toEqual([
      "portkey am-stop-sequences stream: dropped → preserved",
    ]);
  });

  it("never compares a probe whose definition changed", () => {
    const a = loadRunView(store, A);
    const b = loadRunView(store, B);
    const changed: RunView = {
      ...b,
      cells: b.cells.map(
        (c): CellRecord =>
          c.probeId === "am-stop-sequences" ? { ...c, definitionHash: "new-hash" } : c,
      ),
    };
    const diff = diffRuns(a, changed);
    expect(diff.regressions).toEqual([]);
    expect(diff.changedProbes.map((p) => p.probeId)).toEqual(["am-stop-sequences"]);
    // The changed probe's defects are still reported as new, not as regressions.
    expect(diff.newSilent.map(describeChange)).toContain(
      "portkey am-stop-sequences stream: absent → dropped",
    );
  });
});

describe("two columns of one gateway", () => {
  // Portkey's plain install and its +locked install in one run: two columns measured apart.
  const GATEWAYS = [
    ...FIXTURE_GATEWAYS,
    { gateway: "portkey", version: "1.15.2", column: "portkey@1.15.2", status: "ok" as const },
  ];
  const C = "2026-12-01T02-10-00Z-cccc";
  const D = "2026-12-02T02-10-00Z-dddd";

  beforeAll(() => {
    writeFixtureRun(store, { runId: C, startedAt: "2026-12-01T02:10:00.000Z", gateways: GATEWAYS });
    writeFixtureRun(store, {
      runId: D,
      startedAt: "2026-12-02T02:10:00.000Z",
      gateways: GATEWAYS,
      overrides: {
        ...FIXTURE_OVERRIDES,
        "portkey@1.15.2|oc-tools-strict|openai-chat->openai-chat|stream": {
          verdict: "dropped",
          reason: "tools[].function.strict: true → absent",
        },
      },
    });
  });

  it("compares every cell with its own column and finds a regression planted in one", () => {
    const a = loadRunView(store, C);
    const b = loadRunView(store, D);
    const diff = diffRuns(a, b);
    expect(diff.compared).toBe(b.cells.length);
    expect(diff.regressions.map((c) => [c.after?.column, c.routeId, c.probeId, c.mode])).toEqual([
      ["portkey@1.15.2", "openai-chat->openai-chat", "oc-tools-strict", "stream"],
    ]);
    // The locked column's cells, identical in both runs, are not changes of the plain one.
    expect(diff.otherChanges).toEqual([]);
    expect(diff.gatewayChanges).toEqual([]);
  });

  it("does not guess which of two columns a lone earlier column became", () => {
    const a = loadRunView(store, A); // portkey@1.15.2+locked only
    const b = loadRunView(store, C); // portkey@1.15.2+locked and portkey@1.15.2
    const diff = diffRuns(a, b);
    const plain = b.cells.filter((c) => c.column === "portkey@1.15.2").length;
    expect(diff.compared).toBe(b.cells.length - plain);
  });
});

describe("side findings", () => {
  // A silent defect on a subject that is not the probe's own (here: a stop probe's reply
  // came back with an invented text) is a change in the diff like a cell's own verdict.
  const E = "2026-12-03T02-10-00Z-eeee";
  const F = "2026-12-04T02-10-00Z-ffff";
  const STOP = "litellm@1.74.0|am-stop-sequences|anthropic-messages->anthropic-messages|stream";
  const TOOLS = "direct@0.1.0|oc-tools-strict|openai-chat->openai-chat|non-stream";
  const text = (verdict: VerdictKind): Verdict => ({
    subject: "text",
    field: "text",
    verdict,
    reason: `text: ${verdict}`,
    direction: "reply",
  });
  const framing: Verdict = {
    subject: "stream.framing",
    field: "stream.framing",
    verdict: "mangled",
    cause: "malformed-events",
    reason: "stream.framing: well framed → 1 malformed",
    direction: "reply",
  };

  beforeAll(() => {
    writeFixtureRun(store, {
      runId: E,
      startedAt: "2026-12-03T02:10:00.000Z",
      overrides: {
        ...FIXTURE_OVERRIDES,
        [STOP]: { verdict: "preserved", side: [text("preserved")] },
        [TOOLS]: { verdict: "preserved", side: [framing] },
      },
    });
    writeFixtureRun(store, {
      runId: F,
      startedAt: "2026-12-04T02:10:00.000Z",
      overrides: {
        ...FIXTURE_OVERRIDES,
        [STOP]: { verdict: "preserved", side: [text("invented")] },
        // The tools cell's framing error is gone, and a never-judged subject shows up.
        [TOOLS]: {
          verdict: "preserved",
          side: [{ ...framing, subject: "usage.input_tokens", field: "usage.input_tokens" }],
        },
      },
    });
  });

  it("a subject judged clean before and silently lost now is a regression", () => {
    const diff = loadRunDiff(store, E, F);
    const shown = (c: {
      probeId: string;
      subject?: string;
      before?: { verdict: string };
      after?: { verdict: string };
    }) =>
      `${c.probeId} ${c.subject}: ${c.before?.verdict ?? "absent"} → ${c.after?.verdict ?? "absent"}`;
    expect(diff.regressions.map(shown)).toEqual(["am-stop-sequences text: preserved → invented"]);
    expect(diff.newFindings.map(shown).sort()).toEqual([
      "am-stop-sequences text: preserved → invented",
      "oc-tools-strict usage.input_tokens: absent → mangled",
    ]);
    expect(diff.fixedFindings.map(shown)).toEqual([
      "oc-tools-strict stream.framing: mangled → absent",
    ]);
    // The cells' own verdicts did not change: without side findings the diff saw nothing.
    expect(diff.newSilent).toEqual([]);
    // Each side line ends with the attempt whose bytes show it: the later run's for a new
    // finding, the earlier run's for one gone.
    const attemptOf = (run: string, key: string) => {
      const [column, probe, route, mode] = key.split("|");
      return store.db
        .prepare(
          `SELECT attempt_id FROM attempts WHERE run_id = ? AND "column" = ? AND probe_id = ?
           AND route_id = ? AND mode = ? AND phase = 'main'`,
        )
        .pluck()
        .get(run, column, probe, route, mode);
    };
    const lines = formatRunDiff(diff);
    expect(lines).toContain(
      `litellm@1.74.0 anthropic-messages->anthropic-messages stream \`stop_sequences\` (am-stop-sequences) [side: text]: preserved → invented: text: invented #${attemptOf(F, STOP)}`,
    );
    expect(lines).toContain(
      `(oc-tools-strict) [side: stream.framing]: mangled → absent: stream.framing: well framed → 1 malformed #${attemptOf(E, TOOLS)}`,
    );
  });
});

describe("the diff's text by severity", () => {
  it("lists the most costly change of a section first, keeping the diff's order among equals", () => {
    const change = (probeId: string, severity?: "critical" | "major" | "minor") => ({
      gateway: "gw",
      routeId: "openai-chat->openai-chat",
      probeId,
      field: probeId,
      mode: "stream",
      before: {
        column: "gw@1",
        verdict: "preserved" as const,
        reason: "",
        runs: 1,
        determinism: 1,
      },
      after: {
        column: "gw@1",
        verdict: "dropped" as const,
        reason: "x",
        runs: 1,
        determinism: 1,
        ...(severity ? { severity } : {}),
      },
    });
    const regressions = [
      change("a-minor", "minor"),
      change("b-major", "major"),
      change("c-critical", "critical"),
      change("d-major", "major"),
    ];
    const text = formatRunDiff({
      runA: "A",
      runB: "B",
      regressions,
      newSilent: [],
      fixed: [],
      otherChanges: [],
      newFindings: [],
      fixedFindings: [],
      gatewayChanges: [],
      changedProbes: [],
      compared: 4,
    });
    expect(text).toContain(
      "## Regressions: clean → silent defect (4) · 1 critical, 2 major, 1 minor",
    );
    const order = text
      .split("\n")
      .filter((l) => l.startsWith("- ["))
      .map((l) => /\((\S+)\)/.exec(l)?.[1]);
    expect(order).toEqual(["c-critical", "b-major", "d-major", "a-minor"]);
  });
});
