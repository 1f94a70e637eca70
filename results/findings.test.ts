import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subjectOf } from "../probes/subject.ts";
import type { Verdict, VerdictKind } from "../probes/verdict.ts";
import { findingsOf } from "./findings.ts";
import type { AttemptRecord, CellRecord, ProbeRecord } from "./records.ts";
import { deleteRun } from "./rescore-io.ts";
import { openStore, type ResultsStore } from "./store.ts";

const RUN = "2026-12-02T02-10-00Z-ffff";
const COLUMN = "gw@1";
const ROUTE = "openai-chat->anthropic-messages";

function probe(probeId: string, field: string, axis = "request"): ProbeRecord {
  return {
    probeId,
    definitionHash: `h-${probeId}`,
    clientDialect: "openai-chat",
    axis,
    field,
    subject: subjectOf("openai-chat", field),
    severity: "high",
    definition: { id: probeId },
  };
}

const PROBES = [
  probe("oc-refusal", "refusal", "response"),
  probe("oc-stop", "stop"),
  probe("oc-credential-x-api-key", "credentials.header.x-api-key", "credential"),
];

function v(field: string, verdict: VerdictKind, extra: Partial<Verdict> = {}): Verdict {
  return {
    subject: subjectOf("openai-chat", field),
    field,
    verdict,
    reason: `${field}: ${verdict}`,
    direction: "request",
    ...extra,
  };
}

/** A cell whose attempts gave these verdict lists (the first is the main attempt). */
function unit(
  probeId: string,
  lists: Verdict[][],
  own: VerdictKind,
): {
  cell: CellRecord;
  attempts: AttemptRecord[];
} {
  const p = PROBES.find((x) => x.probeId === probeId) as ProbeRecord;
  const key = { column: COLUMN, routeId: ROUTE, probeId, mode: "stream" as const };
  return {
    cell: {
      ...key,
      runId: RUN,
      clientDialect: "openai-chat",
      backendDialect: "anthropic-messages",
      definitionHash: p.definitionHash,
      subject: p.subject,
      verdict: own,
      reason: `${p.field}: ${own}`,
      runs: lists.length,
      counts: { [own]: lists.length },
      determinism: lists.length,
      stable: true,
    },
    attempts: lists.map((verdicts, i) => ({
      ...key,
      runId: RUN,
      attemptNo: i === 0 ? 1 : i,
      phase: i === 0 ? "main" : "repeat",
      status: "ok",
      timings: {},
      clientRequest: {},
      forwarded: [],
      upstreamReply: null,
      clientResponse: { status: 200 },
      verdicts,
    })),
  };
}

let dir: string;
let store: ResultsStore;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gatecheck-findings-"));
  store = openStore(join(dir, "r.db"));
  store.beginRun({
    id: RUN,
    startedAt: "2026-12-02T02:10:00.000Z",
    gatecheckVersion: "0",
    args: {},
  });
  store.putGatewayRun({ runId: RUN, gateway: "gw", version: "1", column: COLUMN, status: "ok" });
  store.putProbes(PROBES);
  const writer = store.cellWriter();
  const invented = v("temperature", "invented", { reason: "temperature: absent → 1" });
  const framing = v("stream.framing", "mangled", {
    direction: "reply",
    cause: "malformed-events",
  });
  const text = v("text", "invented", { direction: "reply", reason: 'text: absent → "Hi"' });
  // A refusal probe, clean on its own subject; the reply also invented a text, and the
  // request an invented temperature; the route's own key reached the upstream (by design).
  writer.add(
    unit(
      "oc-refusal",
      [
        [
          v("refusal", "preserved", { direction: "reply" }),
          text,
          invented,
          v("credentials.header.authorization", "leaked"),
        ],
      ],
      "preserved",
    ),
  );
  // A stop probe that dropped its own field; the framing error showed in 2 of 3 attempts,
  // a planted key in the body in 1 of 3 (a minority: not a finding); a leaked x-api-key,
  // whose own probe the route runs, in all 3.
  const leakedKey = v("credentials.header.x-api-key", "leaked");
  writer.add(
    unit(
      "oc-stop",
      [
        [v("stop", "dropped"), framing, leakedKey],
        [v("stop", "dropped"), framing, leakedKey, v("messages", "dropped")],
        [v("stop", "dropped"), v("stream.framing", "preserved"), leakedKey],
      ],
      "dropped",
    ),
  );
  writer.add(
    unit(
      "oc-credential-x-api-key",
      [[v("credentials.header.x-api-key", "preserved")]],
      "preserved",
    ),
  );
  writer.close();
  store.finishRun(RUN, "done");
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
