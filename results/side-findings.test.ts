import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FindingRecord } from "./findings.ts";
import { runSummaryOf } from "./run-outputs.ts";
import { loadRunView } from "./run-view.ts";
import { sideFindingsOf } from "./side-findings.ts";
import { openStore } from "./store.ts";
import {
  cellUnit,
  UNIT_COLUMN,
  unitProbe,
  verdictOn as v,
  writeUnitRun,
} from "./testing/cell-units.ts";

function finding(over: Partial<FindingRecord>): FindingRecord {
  return {
    runId: "r",
    column: "gw@1",
    gateway: "gw",
    version: "1",
    routeId: "openai-chat->anthropic-messages",
    probeId: "oc-stop",
    mode: "stream",
    subject: "stream.framing",
    field: "stream.framing",
    direction: "reply",
    verdict: "mangled",
    cause: "malformed-events",
    reason: "stream.framing: well framed → 1 malformed",
    k: 1,
    runs: 1,
    own: false,
    attempt: { id: 7, phase: "main", attemptNo: 1 },
    severity: "major",
    severityRule: "stream-lifecycle",
    ...over,
  };
}

describe("side findings per column", () => {
  it("counts one entry per subject, verdict and cause with its cells, and leaves the probes' own findings out", () => {
    const out = sideFindingsOf([
      finding({}),
      finding({ probeId: "oc-seed", attempt: { id: 9, phase: "main", attemptNo: 1 } }),
      finding({ probeId: "oc-seed", mode: "non-stream", routeId: "openai-chat->gemini" }),
      // Another cause of the same subject is another finding.
      finding({ probeId: "oc-top-p", cause: "after-terminal" }),
      // The probe's own verdict is the cell's: never a side finding.
      finding({ probeId: "oc-temperature", subject: "sampling.temperature", own: true }),
      finding({ column: "other@2", subject: "text", verdict: "invented", cause: undefined }),
    ]);
    expect([...out.keys()].sort()).toEqual(["gw@1", "other@2"]);
    const gw = out.get("gw@1");
    expect(gw?.cells).toBe(4);
    expect(gw?.findings).toEqual([
      {
        subject: "stream.framing",
        verdict: "mangled",
        cause: "malformed-events",
        direction: "reply",
        cells: 3,
        routes: ["openai-chat->anthropic-messages", "openai-chat->gemini"],
        example: {
          routeId: "openai-chat->anthropic-messages",
          probeId: "oc-stop",
          mode: "stream",
          attemptId: 7,
          reason: "stream.framing: well framed → 1 malformed",
        },
      },
      expect.objectContaining({ subject: "stream.framing", cause: "after-terminal", cells: 1 }),
    ]);
    expect(out.get("other@2")?.findings).toEqual([
      expect.objectContaining({ subject: "text", verdict: "invented", cells: 1 }),
    ]);
  });

  it("appear in the JSON summary beside each column's counts, not in them", () => {
    const dir = mkdtempSync(join(tmpdir(), "gatecheck-side-findings-"));
    try {
      const store = openStore(join(dir, "r.db"));
      const run = "2026-12-02T02-10-00Z-5ide";
      const refusal = unitProbe("oc-refusal", "refusal", "response");
      writeUnitRun(
        store,
        run,
        [refusal],
        [
          cellUnit(run, refusal, "preserved", [
            { verdicts: [v("refusal", "preserved"), v("temperature", "invented")] },
          ]),
        ],
      );
      const summary = runSummaryOf(loadRunView(store, run));
      store.close();
      const column = summary.columns.find((c) => c.column === UNIT_COLUMN);
      // The cell's own verdict is clean: the rate stays about the probe's own field.
      expect(column).toMatchObject({ silent: 0, preservationRate: 1 });
      expect(column?.sideFindings).toEqual({
        cells: 1,
        findings: [
          {
            subject: "sampling.temperature",
            verdict: "invented",
            direction: "request",
            cells: 1,
            routes: ["openai-chat->anthropic-messages"],
            example: expect.objectContaining({ probeId: "oc-refusal", attemptId: 1 }),
          },
        ],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
