/**
 * Results database throughput: writing attempts through the sweep's batched writer, and
 * reading 100,000 attempts back parsed (what `rescore` does before it re-judges).
 * Baseline in the same run: JSON.parse of the same stored strings from memory, so the
 * database's own share of the read time is visible.
 * Its flags: `--help`.
 */

import { mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { textBytes } from "../../dialects/wire/bytes.ts";
import type { AttemptRecord, CellRecord } from "../../results/records.ts";
import { attemptToRow } from "../../results/row-mapping.ts";
import { openStore } from "../../results/store.ts";
import { benchArgs, numberFlag } from "./bench-args.ts";

const USAGE = `
Usage: npx tsx scripts/bench/results-bench.ts [options]

  --attempts N  attempts written and read back (default 100000)
  -h, --help    this text
`;

const { values } = benchArgs(USAGE, { attempts: { type: "string", default: "100000" } });
const ATTEMPTS = numberFlag(USAGE, "attempts", values.attempts, { min: 1, integer: true });
const PER_CELL = 5;
const RUN = "2026-11-30T02-10-00Z-bnch";

/** A realistic attempt: a few hundred bytes per wire record, like a small probe's exchange. */
function attempt(cell: CellRecord, n: number): AttemptRecord {
  const body = JSON.stringify({
    model: "gpt-4o-mini",
    messages: [{ role: "user", content: `nonce-${cell.probeId}-${n} say hi` }],
    tools: [
      {
        type: "function",
        function: {
          name: "get_weather",
          strict: true,
          parameters: { type: "object", properties: { city: { type: "string" } } },
        },
      },
    ],
    stop: ["STOPPROBE"],
    temperature: 0.3,
  });
  return {
    runId: RUN,
    column: cell.column,
    routeId: cell.routeId,
    probeId: cell.probeId,
    mode: cell.mode,
    phase: n === 1 ? "main" : "repeat",
    attemptNo: n === 1 ? 1 : n - 1,
    status: "ok",
    timings: { sendMs: 0.1, firstByteMs: 3.4, totalMs: 8.2 },
    exchange: {
      route: { client: "openai-chat", backend: "anthropic-messages" },
      mode: cell.mode,
      clientRequest: {
        method: "POST",
        path: "/v1/chat/completions",
        headers: [
          ["content-type", "application/json"],
          ["authorization", "Bearer [REDACTED:0a1b2c3d]"],
        ],
        body: textBytes(JSON.stringify(body)),
      },
      forwarded: [
        {
          method: "POST",
          path: "/v1/messages",
          headers: [["x-api-key", "[REDACTED:0a1b2c3d]"]],
          body: textBytes(JSON.stringify(body)),
        },
      ],
      upstreamReply: {
        status: 200,
        headers: [],
        body: textBytes(
          '{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","usage":{"input_tokens":12,"output_tokens":3}}',
        ),
      },
      clientResponse: {
        status: 200,
        headers: [["content-type", "application/json"]],
        body: textBytes(
          '{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":3}}',
        ),
      },
      timing: { forwarded: [{ atMs: 0, status: 200 }], clientTotalMs: 8 },
    },
    verdicts: [
      {
        subject: "tools.strict",
        field: "tools[].strict",
        verdict: "dropped",
        reason: "true → absent",
      },
      { subject: "sampling.stop", field: "stop", verdict: "preserved", reason: "same value" },
    ],
  };
}

function cellOf(i: number): CellRecord {
  return {
    runId: RUN,
    column: `gw${i % 8}@1.0.0`,
    routeId: "openai-chat->anthropic-messages",
    probeId: `probe-${Math.floor(i / 16)}`,
    mode: Math.floor(i / 8) % 2 === 0 ? "stream" : "non-stream",
    clientDialect: "openai-chat",
    backendDialect: "anthropic-messages",
    definitionHash: "h",
    subject: "tools.strict",
    verdict: "dropped",
    reason: "true → absent",
    runs: PER_CELL,
    counts: { dropped: PER_CELL },
    determinism: PER_CELL,
    stable: true,
  };
}

const JSON_KEYS = ["timings", "exchange", "verdicts"];

interface Measured {
  label: string;
  n: number;
  wallMs: number;
  cpuMs: number;
}

/** Wall time and this process's CPU time: on a shared machine the CPU figure is the steadier one. */
function measure(label: string, fn: () => number): Measured {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const n = fn();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { label, n, wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

function perSecond(n: number, ms: number): string {
  return `${Math.round((n / ms) * 1000).toLocaleString("en-US")}/s`;
}

const dir = mkdtempSync(join(tmpdir(), "gatecheck-bench-"));
try {
  const path = join(dir, "bench.db");
  const store = openStore(path);
  store.beginRun({
    id: RUN,
    startedAt: new Date().toISOString(),
    gatecheckVersion: "bench",
    args: {},
  });

  // Build the records first so the timing is the database's work, not the fixture's.
  const cells = Math.ceil(ATTEMPTS / PER_CELL);
  const units = Array.from({ length: cells }, (_, i) => {
    const cell = cellOf(i);
    return { cell, attempts: Array.from({ length: PER_CELL }, (_, n) => attempt(cell, n + 1)) };
  });

  const results: Measured[] = [];
  const writer = store.cellWriter({ batchRows: 500, maxDelayMs: 0 });
  results.push(
    measure("insert, batched writer (500 rows/txn)", () => {
      for (const unit of units) writer.add(unit);
      writer.close();
      return store.countAttempts(RUN);
    }),
  );
  store.db.pragma("wal_checkpoint(TRUNCATE)");

  results.push(
    measure("read back parsed (iterateAttempts)", () => {
      let n = 0;
      for (const a of store.iterateAttempts(RUN)) n += a.verdicts.length > 0 ? 1 : 0;
      return n;
    }),
  );
  results.push(
    measure("read back as text (iterateAttemptTexts)", () => {
      let n = 0;
      for (const a of store.iterateAttemptTexts(RUN)) n += a.verdicts.length > 0 ? 1 : 0;
      return n;
    }),
  );
  // Baseline in the same run: parse the same JSON strings from memory, no database.
  const rows = units.flatMap((u) => u.attempts.map(attemptToRow));
  results.push(
    measure("baseline: JSON.parse of the same text, no db", () => {
      for (const row of rows) {
        for (const key of JSON_KEYS) JSON.parse(String(row[key]));
      }
      return rows.length;
    }),
  );
  store.close();

  const size = statSync(path).size;
  console.log(
    `results-bench: ${ATTEMPTS.toLocaleString("en-US")} attempts in ${cells.toLocaleString("en-US")} cells, ${(size / 1e6).toFixed(1)} MB, load average ${loadavg()[0]?.toFixed(1)}`,
  );
  for (const r of results) {
    console.log(
      `  ${r.label.padEnd(46)} ${perSecond(r.n, r.wallMs).padStart(11)} wall (${r.wallMs.toFixed(0)} ms), ${perSecond(r.n, r.cpuMs).padStart(11)} per CPU second`,
    );
  }
  const read = results[1];
  if (read) {
    const target = 20_000;
    console.log(
      `  rescore reading share: ${perSecond(read.n, read.wallMs)} wall vs target ${target.toLocaleString("en-US")}/s end to end (${((read.wallMs / read.n / (1000 / target)) * 100).toFixed(0)}% of the per-attempt budget)`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
