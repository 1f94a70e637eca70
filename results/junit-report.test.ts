import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Verdict } from "../probes/verdict.ts";
import { parseAcceptFile } from "./accept-file.ts";
import { renderJunit } from "./junit-report.ts";
import { loadRunView, type RunView } from "./run-view.ts";
import { openStore, type ResultsStore } from "./store.ts";
import { FIXTURE_OVERRIDES, writeFixtureRun } from "./testing/fixture-run.ts";

let dir: string;
let store: ResultsStore;
let view: RunView;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-junit-"));
  store = openStore(join(dir, "r.db"));
  writeFixtureRun(store, { runId: "R", startedAt: "2026-11-30T02:10:00.000Z" });
  view = loadRunView(store, "R");
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function testcases(xml: string): string[] {
  return xml.split("\n").filter((l) => l.trimStart().startsWith("<testcase"));
}

describe("renderJunit", () => {
  it("has one test case per cell plus one skipped case per gateway that did not run", () => {
    const junit = renderJunit(view);
    expect(junit.tests).toBe(view.cells.length + 1);
    expect(testcases(junit.xml)).toHaveLength(view.cells.length + 1);
    // 4 silent defects fail; error + not-run cells and the absent gateway are skipped.
    expect(junit.failures).toBe(4);
    expect(junit.skipped).toBe(3);
    expect(junit.xml).toContain(
      '<testsuite name="claude-code-router@2.0.0" tests="1" failures="0" errors="0" skipped="1">',
    );
    expect(junit.xml).toContain('<skipped message="gateway not-run: binary ccr not on PATH"/>');
    expect(junit.xml).toContain(
      '<testcase classname="gatecheck.portkey@1.15.2+locked.anthropic-messages-&gt;openai-chat" name="tool_choice.disable_parallel_tool_use [am-disable-parallel-tool-use] non-stream">',
    );
    expect(junit.xml).toContain(
      '<failure type="mangled" message="mangled 3/5: disable_parallel_tool_use true → parallel_tool_calls true">verdict: mangled 3/5 (not stable)',
    );
    expect(junit.xml.match(/<testsuites [^>]*>/)?.[0]).toBe(
      `<testsuites name="gatecheck run R" tests="${view.cells.length + 1}" failures="4" errors="0" skipped="3">`,
    );
  });

  it("carries a failing cell's severity from the severity table, on the route's target", () => {
    const xml = renderJunit(view).xml;
    const lines = xml.split("\n");
    const at = lines.indexOf(
      '    <testcase classname="gatecheck.portkey@1.15.2+locked.anthropic-messages-&gt;openai-chat" name="tool_choice.disable_parallel_tool_use [am-disable-parallel-tool-use] non-stream">',
    );
    expect(at).toBeGreaterThan(0);
    const end = lines.indexOf("    </testcase>", at);
    expect(lines.slice(end - 4, end)).toEqual([
      "      <properties>",
      '        <property name="severity" value="major"/>',
      '        <property name="severity-rule" value="default-lost"/>',
      "      </properties>",
    ]);
    expect(xml).toContain(
      "severity: major (default-lost): a value the client set did not arrive as set",
    );
    // A clean cell carries none.
    expect(xml).not.toMatch(/<skipped [^>]*\/>\s*<properties>/);
  });

  it("passes accepted losses, reports stale entries, and fails on the rest", () => {
    const accepts = parseAcceptFile(
      JSON.stringify([
        {
          gateway: "portkey",
          field: "tools[].function.strict",
          verdict: "dropped",
          reason: "anthropic strict is beta; tracked",
        },
        {
          gateway: "litellm@1.74.0",
          field: "stop_sequences",
          verdict: "dropped",
          reason: "known, BerriAI/litellm#9125",
        },
        {
          gateway: "portkey",
          field: "stop_sequences",
          verdict: "dropped",
          reason: "was lost in 1.14",
        },
      ]),
      "accept.json",
    );
    const junit = renderJunit(view, accepts);
    expect(junit.accepted).toBe(3);
    expect(junit.failures).toBe(1);
    expect(junit.unusedAccepts.map((a) => a.reason)).toEqual(["was lost in 1.14"]);
    expect(junit.xml).toContain(
      "<system-out>accepted loss (dropped 5/5: tools[0].strict true → absent): anthropic strict is beta; tracked</system-out>",
    );
    // An acceptance for one verdict does not cover another verdict on the same field.
    const wrongVerdict = parseAcceptFile(
      JSON.stringify([
        {
          gateway: "portkey",
          field: "tool_choice.disable_parallel_tool_use",
          verdict: "dropped",
          reason: "x",
        },
      ]),
      "a.json",
    );
    expect(renderJunit(view, wrongVerdict).failures).toBe(4);
  });

  it("escapes XML and drops characters XML cannot carry", () => {
    const cell = view.cells[0];
    if (!cell) throw new Error("no cells");
    const odd = {
      ...view,
      cells: [{ ...cell, verdict: "mangled" as const, reason: 'a<b & "c"\u0001' }],
    };
    const xml = renderJunit(odd).xml;
    expect(xml).toContain('message="mangled: a&lt;b &amp; &quot;c&quot;\ufffd"');
    expect(xml).not.toContain("\u0001");
  });
});

describe("renderJunit: side findings", () => {
  const PORTKEY = "portkey@1.15.2+locked";
  const text: Verdict = {
    subject: "text",
    field: "text",
    verdict: "invented",
    reason: 'text: absent → "Sure!"',
    direction: "reply",
  };
  let side: RunView;
  beforeAll(() => {
    writeFixtureRun(store, {
      runId: "S",
      startedAt: "2026-11-30T03:10:00.000Z",
      overrides: {
        ...FIXTURE_OVERRIDES,
        [`${PORTKEY}|am-stop-sequences|anthropic-messages->openai-chat|non-stream`]: {
          verdict: "preserved",
          side: [text],
        },
        [`${PORTKEY}|am-stop-sequences|anthropic-messages->openai-chat|stream`]: {
          verdict: "preserved",
          side: [text],
        },
      },
    });
    side = loadRunView(store, "S");
  });

  it("fails one case per side finding, not per cell, naming its cells and an attempt to read", () => {
    const plain = renderJunit(view);
    const junit = renderJunit(side);
    expect(junit.tests).toBe(plain.tests + 1);
    expect(junit.failures).toBe(plain.failures + 1);
    const example = side.findings.find((f) => !f.own)?.attempt?.id;
    expect(example).toEqual(expect.any(Number));
    expect(junit.xml).toContain(
      `<testcase classname="gatecheck.${PORTKEY}.side-findings" name="side finding: invented text">`,
    );
    expect(junit.xml).toContain(
      `<failure type="invented" message="invented text on 2 cells of other probes, e.g. #${example}: text: absent → &quot;Sure!&quot;">`,
    );
    expect(junit.xml).toContain(`bytes: npx gatecheck export --attempt-id ${example}`);
    expect(junit.xml).toContain("severity: major (content-invented)");
  });

  it("passes a side finding an entry accepts by its subject, and counts the entry as used", () => {
    const accepts = parseAcceptFile(
      JSON.stringify([
        { gateway: "portkey", field: "text", verdict: "invented", reason: "greeting, tracked" },
      ]),
      "accept.json",
    );
    const junit = renderJunit(side, accepts);
    expect(junit.failures).toBe(renderJunit(view).failures);
    expect(junit.accepted).toBe(1);
    expect(junit.unusedAccepts).toEqual([]);
    expect(junit.xml).toContain("): greeting, tracked</system-out>");
  });
});

describe("parseAcceptFile", () => {
  it("names the file, the path inside it and what was expected", () => {
    expect(() =>
      parseAcceptFile('[{"gateway":"p","field":"f","verdict":"lost","reason":"r"}]', "base.json"),
    ).toThrow(/base\.json: \[0\]\.verdict: .*expected one of/i);
    expect(() =>
      parseAcceptFile('[{"gateway":"p","field":"f","verdict":"dropped"}]', "base.json"),
    ).toThrow(/base\.json: \[0\]\.reason/);
    expect(() => parseAcceptFile("{", "base.json")).toThrow(/base\.json: not JSON/);
    expect(() => parseAcceptFile('{"gateway":"p"}', "base.json")).toThrow(
      /base\.json: \(top level\)/,
    );
  });
});
