import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderClientSdkSection } from "./client-sdk-section.ts";
import { loadReportFacts, type ReportFacts } from "./report-facts.ts";
import { loadRunView } from "./run-view.ts";
import { openStore, type ResultsStore } from "./store.ts";
import { cellUnit, unitProbe, verdictOn as v, writeUnitRun } from "./testing/cell-units.ts";

const RUN = "2026-12-02T02-10-00Z-fact";
const PROBES = ["a", "b", "c", "d", "e"].map((x) => unitProbe(`oc-${x}`, "stop"));
const p = (i: number) => PROBES[i] as (typeof PROBES)[0];
const accepted = { view: { accepted: true }, findings: [], disagreements: [] };
const refused = (error: string) => ({
  view: { accepted: false, error },
  findings: [],
  disagreements: [],
});

let dir: string;
let store: ResultsStore;
let facts: ReportFacts;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-facts-"));
  store = openStore(join(dir, "r.db"));
  const messages = (verdict: "preserved" | "dropped") => v("messages", verdict);
  writeUnitRun(store, RUN, PROBES, [
    // The upstream answered 200, the client got a 500: a failed delivery.
    cellUnit(RUN, p(0), "rejected", [
      {
        verdicts: [messages("dropped")],
        clientStatus: 500,
        upstreamStatuses: [200],
        clientSdk: refused("InternalServerError: 500 Something went wrong"),
      },
    ]),
    // The upstream failed and the client was told: not a failed delivery.
    cellUnit(RUN, p(1), "preserved", [
      {
        verdicts: [messages("dropped")],
        clientStatus: 503,
        upstreamStatuses: [503],
        clientSdk: refused('InternalServerError: 503 {"error":1}'),
      },
    ]),
    // An upstream 429 relabelled as a 500 is the failure probes' to judge, not this.
    cellUnit(RUN, p(2), "mangled", [
      {
        verdicts: [messages("preserved")],
        clientStatus: 500,
        upstreamStatuses: [429],
        clientSdk: refused("InternalServerError: 500 x"),
      },
    ]),
    // No response at all, nothing forwarded: a failed delivery.
    cellUnit(RUN, p(3), "error", [
      {
        verdicts: [],
        clientStatus: 0,
        clientSdk: refused("Error: request ended without sending any chunks"),
      },
    ]),
    // A 200 the SDK read.
    cellUnit(RUN, p(4), "preserved", [
      {
        verdicts: [messages("preserved")],
        clientStatus: 200,
        upstreamStatuses: [200],
        clientSdk: accepted,
      },
    ]),
  ]);
  facts = loadReportFacts(store, loadRunView(store, RUN));
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("report facts", () => {
  it("finds the cells whose client got no answer though the upstream gave one", () => {
    expect(facts.deliveries.map((d) => [d.probeId, d.clientStatus, d.upstreamStatus])).toEqual([
      ["oc-a", 500, 200],
      ["oc-d", 0, undefined],
    ]);
  });

  it("counts how often each direction's carrier was judged and lost", () => {
    expect(facts.carriers).toEqual([
      {
        column: "gw@1",
        routeId: "openai-chat->anthropic-messages",
        mode: "stream",
        direction: "request",
        judged: 4,
        lost: 2,
      },
    ]);
  });

  it("explains every cell the SDK did not accept", () => {
    const [stats] = facts.clientSdk;
    expect(stats?.cells).toBe(5);
    expect(stats?.accepted).toBe(1);
    const explained = stats?.notAccepted.reduce((a, g) => a + g.cells, 0);
    expect(explained).toBe((stats?.cells ?? 0) - (stats?.accepted ?? 0));
    const md = renderClientSdkSection(facts.clientSdk).join("\n");
    expect(md).toContain(
      "| gw@1 | the client got an error status; the SDK raised it | 3 | 500, 503 |",
    );
    expect(md).toContain(
      "| gw@1 | no response reached the client: Error: request ended without sending any chunks | 1 | 0 |",
    );
  });
});
