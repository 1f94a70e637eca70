/**
 * A small results database for the report's tests, written through the store's own API:
 * two runs of three gateway columns (direct clean, lossy dropping `stop` in the second run,
 * a third that never ran). One recorded body carries `</script>` to prove escaping.
 */

import { gzipSync } from "node:zlib";
import { bytesOf, textBytes } from "../../../dialects/wire/bytes.ts";
import type { VerdictKind } from "../../../probes/verdict.ts";
import type { AttemptRecord, CellRecord, ProbeRecord } from "../../records.ts";
import { openStore } from "../../store.ts";

export const HOSTILE = "</script><script>window.pwned=1</script><!--";

const PROBES: ProbeRecord[] = [
  {
    probeId: "oc-stop-string",
    definitionHash: "h-stop",
    clientDialect: "openai-chat",
    axis: "request",
    field: "stop",
    subject: "sampling.stop",
    severity: "high",
    definition: { id: "oc-stop-string", request: { stop: "STOPPROBE" } },
  },
  {
    probeId: "oc-temperature",
    definitionHash: "h-temp",
    clientDialect: "openai-chat",
    axis: "request",
    field: "temperature",
    subject: "sampling.temperature",
    severity: "medium",
    definition: { id: "oc-temperature", request: { temperature: 0.3 } },
  },
];

const ROUTE = "openai-chat->openai-chat";

function cell(
  runId: string,
  column: string,
  probe: ProbeRecord,
  mode: "stream" | "non-stream",
  verdict: VerdictKind,
  reason: string,
): CellRecord {
  return {
    runId,
    column,
    routeId: ROUTE,
    probeId: probe.probeId,
    mode,
    clientDialect: "openai-chat",
    backendDialect: "openai-chat",
    definitionHash: probe.definitionHash,
    subject: probe.subject,
    verdict,
    reason,
    runs: verdict === "not-run" ? 0 : verdict === "preserved" ? 1 : 3,
    counts: verdict === "not-run" ? {} : { [verdict]: verdict === "preserved" ? 1 : 3 },
    determinism: verdict === "not-run" ? 0 : verdict === "preserved" ? 1 : 3,
    stable: true,
    ...(verdict === "dropped"
      ? { controlVerdict: "preserved" as const, knownIssue: "BerriAI/litellm#1234" }
      : {}),
  };
}

function attempt(c: CellRecord, body: Record<string, unknown>): AttemptRecord {
  const reply = JSON.stringify({
    id: "chatcmpl-1",
    choices: [{ message: { content: HOSTILE }, finish_reason: "stop" }],
  });
  return {
    runId: c.runId,
    column: c.column,
    routeId: c.routeId,
    probeId: c.probeId,
    mode: c.mode,
    phase: "main",
    attemptNo: 1,
    status: "ok",
    timings: { totalMs: 5 },
    exchange: {
      route: { client: "openai-chat", backend: "openai-chat" },
      mode: c.mode,
      clientRequest: {
        method: "POST",
        path: "/v1/chat/completions",
        headers: [["content-type", "application/json"]],
        body: textBytes(JSON.stringify({ model: "m", stop: "STOPPROBE", temperature: 0.3 })),
      },
      forwarded: [
        {
          method: "POST",
          path: "/v1/chat/completions",
          headers: [["content-type", "application/json"]],
          body: textBytes(JSON.stringify(body)),
        },
      ],
      upstreamReply: {
        status: 200,
        headers: [["content-type", "application/json"]],
        body: textBytes(reply),
      },
      clientResponse: {
        status: 200,
        headers: [
          ["content-type", "application/json"],
          ["content-encoding", "gzip"],
        ],
        body: bytesOf(gzipSync(reply)),
      },
    },
    verdicts: [
      {
        subject: PROBES.find((p) => p.probeId === c.probeId)?.subject ?? "extras.?",
        field: PROBES.find((p) => p.probeId === c.probeId)?.field ?? "?",
        verdict: c.verdict,
        reason: c.reason,
      },
    ],
  };
}

/** Writes the two runs; returns their ids, oldest first. */
export function writeSampleRuns(dbPath: string): [string, string] {
  const store = openStore(dbPath);
  const ids: [string, string] = ["2026-11-29T01-00-00Z-aaaa", "2026-11-30T01-00-00Z-bbbb"];
  try {
    store.putProbes(PROBES);
    ids.forEach((runId, i) => {
      const lossyNow = i === 1;
      store.beginRun({
        id: runId,
        startedAt: `2026-11-${29 + i}T01:00:00.000Z`,
        gatecheckVersion: "0.1.0",
        args: {},
      });
      store.putGatewayRun({
        runId,
        gateway: "direct",
        version: "0",
        column: "direct@0",
        status: "ok",
      });
      store.putGatewayRun({
        runId,
        gateway: "lossy",
        version: "1",
        column: "lossy@1",
        status: "ok",
      });
      store.putGatewayRun({
        runId,
        gateway: "absent",
        version: "2",
        column: "absent@2",
        status: "not-run",
        reason: "binary not on PATH",
      });
      const writer = store.cellWriter();
      for (const probe of PROBES) {
        for (const mode of ["non-stream", "stream"] as const) {
          const ok = cell(runId, "direct@0", probe, mode, "preserved", `${probe.field}: carried`);
          writer.add({
            cell: ok,
            attempts: [attempt(ok, { model: "m", stop: "STOPPROBE", temperature: 0.3 })],
          });
          const drops = lossyNow && probe.field === "stop";
          const lossy = cell(
            runId,
            "lossy@1",
            probe,
            mode,
            drops ? "dropped" : "preserved",
            drops ? 'stop: ["STOPPROBE"] → absent' : `${probe.field}: carried`,
          );
          writer.add({
            cell: lossy,
            attempts: [
              attempt(
                lossy,
                drops
                  ? { model: "m", temperature: 0.3 }
                  : { model: "m", stop: "STOPPROBE", temperature: 0.3 },
              ),
            ],
          });
          writer.add({
            cell: cell(
              runId,
              "absent@2",
              probe,
              mode,
              "not-run",
              "gateway not run: binary not on PATH",
            ),
            attempts: [],
          });
        }
      }
      writer.close();
      store.finishRun(runId, "done");
    });
  } finally {
    store.close();
  }
  return ids;
}

/** Starts one more run, later than both sample runs and with no cells: a write readers see. */
export function addLaterRun(dbPath: string): string {
  const id = "2026-12-02T01-00-00Z-cccc";
  const store = openStore(dbPath);
  try {
    store.beginRun({
      id,
      startedAt: "2026-12-02T01:00:00.000Z",
      gatecheckVersion: "0.1.0",
      args: {},
    });
  } finally {
    store.close();
  }
  return id;
}
