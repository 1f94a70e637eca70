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
    // the route runs, in all 3; an invented seed in the two repeats, not the main attempt.
    cellUnit(RUN, stop, "dropped", [
      { verdicts: [v("stop", "dropped"), framing, leakedKey, v("seed", "preserved")] },
      {
        verdicts: [
          v("stop", "dropped"),
          framing,
          leakedKey,
          v("messages", "dropped"),
          v("seed", "invented"),
        ],
      },
      {
        verdicts: [
          v("stop", "dropped"),
          v("stream.framing", "preserved"),
          leakedKey,
          v("seed", "invented"),
        ],
      },
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
      "oc-stop side sampling.seed invented 2/3 request",
      "oc-stop side stream.framing mangled (malformed-events) 2/3 reply",
    ]);
  });

  it("names the gateway, its version and the attempt to read: the main one where it gave the verdict, else the first repeat that did", () => {
    const attempts = new Map(
      (
        store.db
          .prepare(`SELECT attempt_id, probe_id, phase, attempt_no FROM attempts WHERE run_id = ?`)
          .all(RUN) as { attempt_id: number; probe_id: string; phase: string; attempt_no: number }[]
      ).map((a) => [`${a.probe_id} ${a.phase} ${a.attempt_no}`, a.attempt_id]),
    );
    const where = (f: ReturnType<typeof findingsOf>[number]) =>
      `${f.probeId} ${f.subject} ${f.gateway}@${f.version} ${f.attempt?.phase} ${f.attempt?.attemptNo} #${f.attempt?.id}`;
    expect(findingsOf(store, RUN).map(where)).toEqual([
      `oc-refusal sampling.temperature gw@1 main 1 #${attempts.get("oc-refusal main 1")}`,
      `oc-refusal text gw@1 main 1 #${attempts.get("oc-refusal main 1")}`,
      `oc-stop sampling.stop gw@1 main 1 #${attempts.get("oc-stop main 1")}`,
      `oc-stop credentials.header.x-api-key gw@1 main 1 #${attempts.get("oc-stop main 1")}`,
      `oc-stop sampling.seed gw@1 repeat 1 #${attempts.get("oc-stop repeat 1")}`,
      `oc-stop stream.framing gw@1 main 1 #${attempts.get("oc-stop main 1")}`,
    ]);
    const bySql = store.db
      .prepare(
        `SELECT gateway, version, phase, attempt_no FROM findings
         WHERE run_id = ? AND gateway = 'gw' AND version = '1' AND subject = 'sampling.seed'`,
      )
      .all(RUN);
    expect(bySql).toEqual([{ gateway: "gw", version: "1", phase: "repeat", attempt_no: 1 }]);
  });

  it("gives each finding its severity from the table, on the cell's target", () => {
    const severities = findingsOf(store, RUN).map(
      (f) => `${f.subject} ${f.backend} ${f.severity} ${f.severityRule}`,
    );
    expect(severities).toEqual([
      "sampling.temperature anthropic-messages major sampling-lost",
      "text anthropic-messages major content-invented",
      "sampling.stop anthropic-messages major sampling-lost",
      "credentials.header.x-api-key anthropic-messages critical credential-leaked",
      "sampling.seed anthropic-messages major sampling-lost",
      "stream.framing anthropic-messages major stream-lifecycle",
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
