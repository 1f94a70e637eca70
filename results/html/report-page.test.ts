import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { openStoreReadonly } from "../store.ts";
import { scriptJson } from "./html-escape.ts";
import { loadReportInputs } from "./report-inputs.ts";
import { buildReportModel } from "./report-model.ts";
import { renderHtmlReport } from "./report-page.ts";
import { HOSTILE, writeSampleRuns } from "./testing/sample-runs.ts";

const dir = mkdtempSync(join(tmpdir(), "gatecheck-page-"));
const dbPath = join(dir, "gc.db");
const [older, newer] = writeSampleRuns(dbPath);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function model(runId?: string) {
  const store = openStoreReadonly(dbPath);
  try {
    return buildReportModel(loadReportInputs(store, runId));
  } finally {
    store.close();
  }
}

/** The JSON block of a page, parsed back. */
function pageData(html: string): {
  cells: {
    id: number;
    verdict: string;
    detail?: { panes: Record<string, string>; terms: string[] };
    history: { verdict: string }[];
  }[];
} {
  const m = /<script type="application\/json" id="gc-data">([\s\S]*?)<\/script>/.exec(html);
  const z =
    /<script type="text\/plain" id="gc-details" data-encoding="gzip\+base64">([A-Za-z0-9+/=]*)<\/script>/.exec(
      html,
    );
  if (!m?.[1] || !z?.[1]) throw new Error("no data block");
  const data = JSON.parse(m[1]);
  const details = JSON.parse(gunzipSync(Buffer.from(z[1], "base64")).toString("utf8"));
  data.cells.forEach((c: { detail?: unknown }, i: number) => {
    if (details[i]) c.detail = details[i];
  });
  return data;
}

describe("HTML report page", () => {
  it("escapes recorded bytes: no </script> from a body reaches the page, and the data reads back whole", () => {
    const html = renderHtmlReport(model());
    expect(html).not.toContain(HOSTILE);
    expect(html.match(/<\/script>/g)?.length).toBe(3);
    const data = pageData(html);
    const direct = data.cells.find((c) => c.detail?.panes.upstreamReply?.includes(HOSTILE));
    expect(direct).toBeDefined();
    expect(JSON.parse(scriptJson({ s: HOSTILE })).s).toBe(HOSTILE);
  });

  it("one chip per cell; silent defects bold; the absent gateway hatched with its reason, never clean", () => {
    const m = model();
    const html = renderHtmlReport(m);
    expect(html.match(/class="chip v-[a-z-]+[^"]*" data-cell=/g)?.length).toBe(m.cells.length);
    expect(html.match(/class="chip v-dropped silent"/g)?.length).toBe(2);
    // Both dropped chips changed since the first run (preserved then): marked Δ.
    expect(html.match(/>(?:ns|s) DROPPED 3\/3 ⊕ ⚑ Δ</g)?.length).toBe(2);
    expect(html).toContain('<th class="col absent"');
    expect(html).toContain("binary not on PATH");
    const absentRate = m.rates.find((r) => r.column === "absent@2");
    expect(absentRate?.preservationRate).toBeNull();
    expect(html).toMatch(
      /absent@2 <strong class="absent-label">not-run: binary not on PATH<\/strong><\/th><td><span class="bar absent"/,
    );
    expect(html).toContain("not measured");
  });

  it("cells carry history, control and known-issue marks, and decompressed client bytes", () => {
    const m = model(newer);
    const dropped = m.cells.find((c) => c.verdict === "dropped" && c.mode === "non-stream");
    expect(dropped?.history.map((h) => [h.runId, h.verdict])).toEqual([[older, "preserved"]]);
    expect(dropped).toMatchObject({
      k: 3,
      n: 3,
      control: "preserved",
      controlMark: "⊕",
      knownIssueUrl: "https://github.com/BerriAI/litellm/issues/1234",
    });
    expect(dropped?.detail?.panes.forwarded).not.toContain("STOPPROBE");
    expect(dropped?.detail?.panes.clientRequest).toContain('"stop": "STOPPROBE"');
    expect(dropped?.detail?.terms).toEqual(expect.arrayContaining(["stop", "STOPPROBE"]));
    expect(dropped?.detail?.panes.clientResponse).toMatch(
      /^HTTP 200\ncontent-type: application\/json\ncontent-encoding: gzip\n\n\(gzip, \d+ bytes on the wire; shown decompressed\)/,
    );
    // No SDK view was stored for these attempts: the pane says nothing about one (it used to
    // call the missing record unreadable).
    expect(dropped?.detail?.panes.clientResponse).not.toContain("official SDK");
    const notRun = m.cells.find((c) => c.verdict === "not-run");
    expect(notRun?.detail).toBeUndefined();
  });

  it("the oldest run has no diff and says so; the newest diffs against the one before", () => {
    expect(model(older).diff).toBeUndefined();
    expect(renderHtmlReport(model(older))).toContain("No earlier run in this database");
    expect(model(newer).diff?.regressions).toHaveLength(2);
    // A file on disk links nowhere: there is no server behind it.
    expect(renderHtmlReport(model(newer))).not.toContain('href="/');
  });

  it("has the Markdown's sections: scope, headline, every defect, controls, unmeasured cells", () => {
    const html = renderHtmlReport(model(newer));
    for (const id of ["scope", "headline", "grid", "defects", "controls", "not-measured"]) {
      expect(html).toContain(`<section id="s-${id}" class="md-section">`);
    }
    expect(html).toContain("<h2>Headline: distinct silent defects per gateway</h2>");
    expect(html).toMatch(/<h3>lossy@1: \d+ distinct silent defects? /);
    // Folded below the matrix: the appendix sections.
    expect(html.indexOf('id="s-controls"')).toBeGreaterThan(html.indexOf('id="matrix"'));
    expect(html.indexOf('id="s-headline"')).toBeLessThan(html.indexOf('id="matrix"'));
  });

  it("offers an all-silent-defects filter and the export command's run and database", () => {
    const m = model(newer);
    const html = renderHtmlReport(m);
    expect(html).toContain('<option value="silent">all silent defects (own or side)</option>');
    const data = JSON.parse(
      /<script type="application\/json" id="gc-data">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "{}",
    );
    expect(data.exportBase).toEqual({ runId: newer, db: dbPath });
  });
});
