/**
 * The control column is clean (docs/lens.md "A fault the upstream sent is not the gateway's"):
 * `direct` talks to the mock with no gateway between, so a finding on it is a rule blaming a
 * gateway for what the upstream did. A real sweep of `direct`, both modes, over every probe
 * whose staged upstream reply is itself at fault (an error body with no type, tool arguments
 * that are not JSON, a tool-call id out of Anthropic's form, a stream the upstream cuts
 * mid-event) has no finding, own or side, and each of those faults is judged as the
 * upstream's (`as-upstream`), so the rule did the work, not a judge that stayed silent.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { direct } from "../gateways/adapters/direct.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import { CONTROL_GATEWAY } from "../results/defects.ts";
import { CONTROL_NOT_CLEAN } from "../results/headline-section.ts";
import { loadRunView } from "../results/run-view.ts";
import { openStore } from "../results/store.ts";
import { runSweep } from "./run-sweep.ts";
import { testSweepOptions } from "./testing-sweep.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-control-clean-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The probes whose upstream itself sends the fault, per client dialect where it has one. */
const UPSTREAM_AT_FAULT = [
  ...["am", "oc", "or"].flatMap((c) => [
    `${c}-error-empty-500`,
    `${c}-error-html-502`,
    `${c}-error-string-body`,
    `${c}-failure-error-text-string`,
    `${c}-failure-status-502-html`,
  ]),
  "oc-reply-tool-call-malformed-arguments",
  "or-reply-tool-call-malformed-arguments",
  "am-reply-tool-call-id-punctuated",
  "oc-failure-stream-reset",
  "or-failure-stream-reset",
];

it("direct over the probes whose upstream is at fault has no finding, each fault the upstream's", async () => {
  const probes = CORPUS.filter((p) => UPSTREAM_AT_FAULT.includes(p.id));
  expect(probes.map((p) => p.id).sort()).toEqual([...UPSTREAM_AT_FAULT].sort());
  const result = await runSweep(
    testSweepOptions(dir, {
      columns: [{ adapter: direct, spec: { name: "direct", version: "0" } }],
      probes,
      modes: ["non-stream", "stream"],
    }),
  );
  expect(result.status).toBe("done");
  const store = openStore(result.dbPath);
  try {
    const view = loadRunView(store, result.runId);
    expect(view.cells.length).toBeGreaterThanOrEqual(UPSTREAM_AT_FAULT.length);
    expect(view.findings.map((f) => `${f.probeId} ${f.mode} ${f.subject} ${f.verdict}`)).toEqual(
      [],
    );
    const relayed = new Set<string>();
    for (const ref of store.judgementRefs(result.runId)) {
      const verdicts = JSON.parse(store.verdictListText(ref.verdictsId)) as {
        subject: string;
        cause?: string;
      }[];
      for (const v of verdicts) if (v.cause === "as-upstream") relayed.add(v.subject);
    }
    // The matrix marks a control column with findings; this one has none.
    expect(readFileSync(result.matrixPath, "utf8")).not.toContain(CONTROL_NOT_CLEAN);
    expect([...relayed].sort()).toEqual([
      "error.type",
      "invariant.tool-arguments",
      "invariant.tool-call-id",
      "stream.framing",
    ]);
  } finally {
    store.close();
  }
});

it("the results know the control column by the name of the gateway that is none", () => {
  expect(direct.name).toBe(CONTROL_GATEWAY);
});
