/**
 * A realistic run for tests, written through the store's own API: four gateway columns
 * (one not run), native and translated routes, both modes, a verdict mix with repeats,
 * controls, known issues that reproduced and one that did not, budget-cut cells.
 * `overrides` lets a test change single cells to build a second run for `diff`.
 */

import type { ClientDialect, Dialect, Mode } from "../../dialects/dialect.ts";
import { textBytes } from "../../dialects/wire/bytes.ts";
import type { Cause } from "../../probes/causes.ts";
import { subjectOf } from "../../probes/subject.ts";
import type { Verdict, VerdictKind } from "../../probes/verdict.ts";
import type { AttemptRecord, CellRecord, GatewayRunRecord, ProbeRecord } from "../records.ts";
import type { ResultsStore } from "../store.ts";

/** The known issues the fixture's probes cite (positive controls); two are not measured. */
const KNOWN_ISSUES: Record<string, object[]> = {
  "am-stop-sequences": [
    {
      gateway: "litellm",
      versions: ["1.74.0"],
      expect: "dropped",
      url: "BerriAI/litellm#9125",
      backends: ["openai-chat"],
    },
    // Bifrost is not a column of the fixture run.
    { gateway: "bifrost", versions: ["1.6.7"], expect: "dropped", url: "maximhq/bifrost#5887" },
  ],
  "am-credential-x-api-key": [
    { gateway: "litellm", versions: ["1.74.0"], expect: "leaked", url: "BerriAI/litellm#7001" },
  ],
  "oc-tools-strict": [
    { gateway: "portkey", versions: ["1.15.2"], expect: "dropped", url: "Portkey-AI/gateway#1180" },
    // claude-code-router is a column that did not run.
    {
      gateway: "claude-code-router",
      versions: ["2.0.0"],
      expect: "dropped",
      url: "musistudio/llms#9",
    },
  ],
};

export const FIXTURE_PROBES: ProbeRecord[] = [
  probe("am-stop-sequences", "anthropic-messages", "request", "stop_sequences", "high"),
  probe(
    "am-disable-parallel-tool-use",
    "anthropic-messages",
    "request",
    "tool_choice.disable_parallel_tool_use",
    "high",
  ),
  probe(
    "am-credential-x-api-key",
    "anthropic-messages",
    "credential",
    "credentials.header.x-api-key",
    "critical",
  ),
  probe("oc-tools-strict", "openai-chat", "request", "tools[].function.strict", "medium"),
  probe("oc-reply-finish-length", "openai-chat", "response", "finish_reason", "high"),
];

function probe(
  probeId: string,
  clientDialect: ClientDialect,
  axis: string,
  field: string,
  severity: string,
): ProbeRecord {
  const knownIssues = KNOWN_ISSUES[probeId];
  return {
    probeId,
    definitionHash: `h-${probeId.length.toString(16)}${field.length.toString(16)}`,
    clientDialect,
    axis,
    field,
    subject: subjectOf(clientDialect, field),
    severity,
    definition: {
      id: probeId,
      clientDialect,
      axis,
      field,
      fragment: { [field]: "PROBE" },
      ...(knownIssues ? { knownIssues } : {}),
    },
  };
}

export const FIXTURE_GATEWAYS: Omit<GatewayRunRecord, "runId">[] = [
  { gateway: "direct", version: "0.1.0", column: "direct@0.1.0", status: "ok" },
  {
    gateway: "litellm",
    version: "1.74.0",
    column: "litellm@1.74.0",
    status: "ok",
    logPath: "results/runs/litellm.log",
  },
  {
    gateway: "portkey",
    version: "1.15.2",
    column: "portkey@1.15.2+locked",
    status: "ok",
    logPath: "results/runs/portkey.log",
  },
  {
    gateway: "claude-code-router",
    version: "2.0.0",
    column: "claude-code-router@2.0.0",
    status: "not-run",
    reason: "binary ccr not on PATH",
  },
];

const ROUTES: Record<ClientDialect, Dialect[]> = {
  "anthropic-messages": ["anthropic-messages", "openai-chat"],
  "openai-chat": ["openai-chat", "anthropic-messages"],
  "openai-responses": ["openai-responses"],
};

export interface CellOverride {
  verdict: VerdictKind;
  reason?: string;
  /** k of N; defaults to N of N. */
  k?: number;
  runs?: number;
  controlVerdict?: VerdictKind;
  knownIssue?: string;
  cause?: Cause;
  /** Verdicts on other subjects, added to every main and repeat attempt's list. */
  side?: Verdict[];
}

/** Key: `column|probeId|routeId|mode`. */
export type Overrides = Record<string, CellOverride>;

const TRANSLATED = (client: Dialect, backend: Dialect) => `${client}->${backend}`;

export const FIXTURE_OVERRIDES: Overrides = {
  "portkey@1.15.2+locked|oc-tools-strict|openai-chat->anthropic-messages|non-stream": {
    verdict: "dropped",
    reason: "tools[0].strict true → absent",
    runs: 5,
    controlVerdict: "preserved",
    knownIssue: "Portkey-AI/gateway#1180",
  },
  "portkey@1.15.2+locked|oc-tools-strict|openai-chat->anthropic-messages|stream": {
    verdict: "dropped",
    reason: "tools[0].strict true → absent",
    runs: 5,
    controlVerdict: "preserved",
    knownIssue: "Portkey-AI/gateway#1180",
  },
  "portkey@1.15.2+locked|am-disable-parallel-tool-use|anthropic-messages->openai-chat|non-stream": {
    verdict: "mangled",
    reason: "disable_parallel_tool_use true → parallel_tool_calls true",
    runs: 5,
    k: 3,
    cause: "malformed",
  },
  "litellm@1.74.0|am-stop-sequences|anthropic-messages->openai-chat|stream": {
    verdict: "dropped",
    reason: '["STOPPROBE"] → absent',
    runs: 5,
    knownIssue: "BerriAI/litellm#9125",
  },
  "litellm@1.74.0|am-credential-x-api-key|anthropic-messages->openai-chat|non-stream": {
    verdict: "preserved",
    reason: "canary absent from forwarded request",
    knownIssue: "BerriAI/litellm#7001",
  },
  "litellm@1.74.0|oc-tools-strict|openai-chat->anthropic-messages|non-stream": {
    verdict: "no-equivalent",
    reason: "anthropic-messages tools carry no strict flag (table)",
  },
  "litellm@1.74.0|oc-reply-finish-length|openai-chat->anthropic-messages|non-stream": {
    verdict: "rejected",
    reason: "HTTP 400 max_tokens: field required",
    runs: 5,
  },
  "litellm@1.74.0|oc-reply-finish-length|openai-chat->anthropic-messages|stream": {
    verdict: "not-run",
    reason: "budget",
    runs: 0,
  },
  "direct@0.1.0|oc-reply-finish-length|openai-chat->openai-chat|stream": {
    verdict: "error",
    reason: "transport: socket hang up",
    runs: 1,
  },
};

export interface FixtureRunOptions {
  runId: string;
  startedAt: string;
  overrides?: Overrides;
  /** Versions to use instead of the fixture's (gateway name → version; the column follows). */
  versions?: Record<string, string>;
  /** Gateway columns instead of FIXTURE_GATEWAYS (overrides name a column by its label here). */
  gateways?: readonly Omit<GatewayRunRecord, "runId">[];
  /** Keep only cells this predicate accepts (shards). */
  keep?: (cell: CellRecord) => boolean;
  shard?: string;
  batchRows?: number;
}

/** Every cell of the fixture run, before writing. */
export function fixtureCells(
  options: FixtureRunOptions,
): { cell: CellRecord; attempts: AttemptRecord[] }[] {
  const overrides = options.overrides ?? FIXTURE_OVERRIDES;
  const out: { cell: CellRecord; attempts: AttemptRecord[] }[] = [];
  for (const { gw, label } of fixtureGateways(options)) {
    if (gw.status !== "ok") continue;
    for (const p of FIXTURE_PROBES) {
      for (const backend of ROUTES[p.clientDialect]) {
        // `direct` cannot translate: it only has native routes.
        if (gw.gateway === "direct" && backend !== p.clientDialect) continue;
        for (const mode of ["non-stream", "stream"] as Mode[]) {
          const routeId = TRANSLATED(p.clientDialect, backend);
          const base = overrides[`${label}|${p.probeId}|${routeId}|${mode}`];
          const o: CellOverride = base ?? { verdict: "preserved", reason: "same value" };
          const runs = o.runs ?? 1;
          const k = o.k ?? runs;
          const cell: CellRecord = {
            runId: options.runId,
            column: gw.column,
            routeId,
            probeId: p.probeId,
            mode,
            clientDialect: p.clientDialect,
            backendDialect: backend,
            definitionHash: p.definitionHash,
            subject: p.subject,
            verdict: o.verdict,
            reason: o.reason ?? "same value",
            cause: o.cause,
            runs,
            counts:
              runs === 0
                ? {}
                : k === runs
                  ? { [o.verdict]: runs }
                  : { [o.verdict]: k, preserved: runs - k },
            determinism: k,
            stable: k === runs,
            controlVerdict: o.controlVerdict,
            knownIssue: o.knownIssue,
          };
          if (options.keep && !options.keep(cell)) continue;
          out.push({ cell, attempts: attemptsOf(cell, p.field, o.side ?? []) });
        }
      }
    }
  }
  return out;
}

/** The run's gateway rows, each with the label overrides know it by (before a version bump). */
function fixtureGateways(options: FixtureRunOptions): { gw: GatewayRunRecord; label: string }[] {
  return (options.gateways ?? FIXTURE_GATEWAYS).map((g) => {
    const version = options.versions?.[g.gateway] ?? g.version;
    const column = g.column.replace(`@${g.version}`, `@${version}`);
    return { gw: { ...g, version, column, runId: options.runId }, label: g.column };
  });
}

function attemptsOf(cell: CellRecord, field: string, side: Verdict[]): AttemptRecord[] {
  const attempts: AttemptRecord[] = [];
  const add = (phase: AttemptRecord["phase"], attemptNo: number, verdict: VerdictKind) =>
    attempts.push({
      runId: cell.runId,
      column: cell.column,
      routeId: cell.routeId,
      probeId: cell.probeId,
      mode: cell.mode,
      phase,
      attemptNo,
      status: verdict === "error" ? "transport-error" : "ok",
      timings: { sendMs: 0, firstByteMs: 3.2, totalMs: 7.9 },
      exchange: {
        route: { client: "anthropic-messages", backend: "openai-chat" },
        mode: cell.mode,
        clientRequest: {
          method: "POST",
          path: "/v1/messages",
          headers: [],
          body: textBytes(`{"${field}":"PROBE"}`),
        },
        forwarded: [
          { method: "POST", path: "/v1/chat/completions", headers: [], body: textBytes("{}") },
        ],
        upstreamReply: { status: 200, headers: [], body: textBytes("{}") },
        clientResponse: {
          status: verdict === "rejected" ? 400 : 200,
          headers: [],
          body: textBytes("{}"),
        },
      },
      verdicts: [
        { subject: subjectOf(cell.clientDialect, field), field, verdict, reason: cell.reason },
        ...(phase === "control" ? [] : side),
      ],
    });
  if (cell.runs === 0) return attempts;
  for (let i = 1; i <= cell.runs; i++) {
    const verdict = i <= cell.determinism ? cell.verdict : "preserved";
    add(i === 1 ? "main" : "repeat", i === 1 ? 1 : i - 1, verdict);
  }
  if (cell.controlVerdict) add("control", 1, cell.controlVerdict);
  return attempts;
}

/** Write the fixture run through the store: run, gateway runs, probes, cells, finish. */
export function writeFixtureRun(store: ResultsStore, options: FixtureRunOptions): void {
  store.beginRun({
    id: options.runId,
    startedAt: options.startedAt,
    gatecheckVersion: "0.1.0",
    gitSha: "abc1234",
    args: { repeats: 5, modes: ["stream", "non-stream"] },
    shard: options.shard,
  });
  for (const { gw } of fixtureGateways(options)) store.putGatewayRun(gw);
  store.putProbes(FIXTURE_PROBES);
  const writer = store.cellWriter({ batchRows: options.batchRows ?? 50 });
  for (const write of fixtureCells(options)) writer.add(write);
  writer.close();
  store.finishRun(options.runId, "done");
}
