import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findingsOf } from "./findings.ts";
import { deleteRun } from "./rescore-io.ts";
import { openStore, type ResultsStore } from "./store.ts";
import { cellUnit, unitProbe, verdictOn as v, writeUnitRun } from "./testing/cell-units.ts";

const RUN = "2026-12-02T02-10-00Z-ffff";
const PROBES = [
  unitProbe("oc-refusal", "refusal", "response"),
  unitProbe("oc-stop", "stop"),
  unitProbe("oc-credential-x-api-key", "credentials.header.x-api-key", "credential"),
];
const [refusal, stop, credential] = PROBES as [
  (typeof PROBES)[0],
  (typeof PROBES)[0],
  (typeof PROBES)[0],
];

let dir: string;
let store: ResultsStore;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-findings-"));
  store = openStore(join(dir, "r.db"));
  const invented = v("temperature", "invented", { reason: "temperature: absent → 1" });
  const framing = v("stream.framing", "mangled", {
    direction: "reply",
    cause: "malformed-events",
  });
  const text = v("text", "invented", { direction: "reply", reason: 'text: absent → "Hi"' });
  const leakedKey = v("credentials.header.x-api-key", "leaked");
  writeUnitRun(store, RUN, PROBES, [
    // A refusal probe, clean on its own subject; the reply also invented a text, and the
    // request an invented temperature; the route's own key reached the upstream (by design:
    // no probe of that credential runs on this route).
    cellUnit(RUN, refusal, "preserved", [
      {
        verdicts: [
          v("refusal", "preserved", { direction: "reply" }),
          text,
          invented,
          v("credentials.header.authorization", "leaked"),
        ],
      },
    ]),
    // A stop probe that dropped its own field; the framing error showed in 2 of 3 attempts,
    // the messages in 1 of 3 (a minority: not a finding); a leaked x-api-key, whose own probe
    // the route runs, in all 3.
    cellUnit(RUN, stop, "dropped", [
      { verdicts: [v("stop", "dropped"), framing, leakedKey] },
      { verdicts: [v("stop", "dropped"), framing, leakedKey, v("messages", "dropped")] },
      { verdicts: [v("stop", "dropped"), v("stream.framing", "preserved"), leakedKey] },
    ]),
    cellUnit(RUN, credential, "preserved", [
      { verdicts: [v("credentials.header.x-api-key", "preserved")] },
    ]),
  ]);
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const shown = (f: ReturnType<typeof findingsOf>[number]) =>
  `${f.probeId} ${f.own ? "own" : "side"} ${f.subject} ${f.verdict}${f.cause ? ` (${f.cause})` : ""} ${f.k}/${f.runs} ${f.direction ?? "?"}`;

describe("findings", () => {
  it("holds the cell's own silent verdicts and every other subject silently lost on its attempts", () => {
    expect(findingsOf(store, RUN).map(shown)).toEqual([
      "oc-refusal side sampling.temperature invented 1/1 request",
      "oc-refusal side text invented 1/1 reply",
      "oc-stop own sampling.stop dropped 3/3 request",
      "oc-stop side credentials.header.x-api-key leaked 3/3 request",
      "oc-stop side stream.framing mangled (malformed-events) 2/3 reply",
    ]);
  });

  it("answers a question by subject in SQL, whoever's probe it was", () => {
    const rows = store.db
      .prepare(
        `SELECT probe_id, verdict, reason FROM findings
         WHERE run_id = ? AND subject = 'text' AND own = 0`,
      )
      .all(RUN);
    expect(rows).toEqual([
      { probe_id: "oc-refusal", verdict: "invented", reason: 'text: absent → "Hi"' },
    ]);
  });

  it("goes with its run", () => {
    deleteRun(store, RUN);
    expect(findingsOf(store, RUN)).toEqual([]);
  });
});
