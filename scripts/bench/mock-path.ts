/**
 * Where the mock's own time goes on one request, in process: the steps of the traffic path
 * (`answerTraffic`: judge, decide, plan, record) for the load benchmark's ~1 KB Chat POST,
 * each timed alone by the process's CPU (user + system, GC threads included) over 100,000
 * calls, five times (min and median printed). No HTTP: what mock-load.ts measures beyond
 * this is Node's HTTP and the reply's write, which a bare server pays too.
 * Its flags: `--help`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createMockState } from "../../mock-upstream/app.ts";
import { LineMemo } from "../../mock-upstream/line-memo.ts";
import { bodyFacts, type RawRequest } from "../../mock-upstream/record.ts";
import { Recorder } from "../../mock-upstream/recorder.ts";
import { replyBytes } from "../../mock-upstream/reply-bytes.ts";
import { answerTraffic, arrive, judgeRequest } from "../../mock-upstream/traffic.ts";
import { renderTrafficLine, trafficLine } from "../../mock-upstream/traffic-record.ts";
import { sentHeaders, type WireReply } from "../../mock-upstream/wire-plan.ts";
import { benchArgs, numberFlag, usageError } from "./bench-args.ts";
import {
  AGENT_CONVERSATION_BODY,
  ESCAPED_CONVERSATION_BODY,
  ESCAPED_LOAD_BODY,
  LOAD_AUTHORIZATION,
  LOAD_BODY,
  SHARED_NONCE,
} from "./load/request.ts";

const USAGE = `
Usage: npx tsx scripts/bench/mock-path.ts [options]

  --regime R    distinct (a fresh nonce per request) or shared (one nonce) (default distinct)
  --batch N     records per write of the record file, as one event-loop turn's (default 4)
  -h, --help    this text
`;

const { values } = benchArgs(USAGE, {
  regime: { type: "string", default: "distinct" },
  batch: { type: "string", default: "4" },
});
if (values.regime !== "distinct" && values.regime !== "shared") {
  usageError(USAGE, `--regime: expected distinct or shared, got ${values.regime}`);
}
const SHARED = values.regime === "shared";
const BATCH = numberFlag(USAGE, "batch", values.batch, { min: 1, integer: true });
const CALLS = 100_000;

const nonceOf = (i: number) =>
  SHARED ? SHARED_NONCE : `gc-5ba7ed00${(i >>> 0).toString(16).padStart(8, "0")}`;
const BODIES = Array.from({ length: 20_000 }, (_, i) =>
  Buffer.from(LOAD_BODY.replace("{NONCE}", nonceOf(i))),
);
const bodyOf = (i: number) => BODIES[i % BODIES.length] as Buffer;
const bodiesOf = (body: string, count: number) =>
  Array.from({ length: count }, (_, i) => Buffer.from(body.replace("{NONCE}", nonceOf(i))));

function rawOf(i: number): RawRequest {
  const body = bodyOf(i);
  return {
    method: "POST",
    path: "/v1/chat/completions",
    query: "",
    headers: [
      ["host", "127.0.0.1:40000"],
      ["content-type", "application/json"],
      ["authorization", LOAD_AUTHORIZATION],
      ["content-length", String(body.length)],
    ],
    body,
    bodyBytes: body.length,
    bodyTruncated: false,
  };
}

let sink: unknown;
let offset = 0;
function time(name: string, fn: (i: number) => unknown, calls = CALLS): void {
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < calls; i++) sink = fn(offset + i);
    offset += calls;
    const cpu = process.cpuUsage(start);
    runs.push((cpu.user + cpu.system) / calls);
  }
  runs.sort((a, b) => a - b);
  const f = (x: number | undefined) => (x ?? Number.NaN).toFixed(2).padStart(6);
  process.stdout.write(`${name.padEnd(40)} min ${f(runs[0])}  median ${f(runs[2])} µs\n`);
}

const dir = mkdtempSync(join(tmpdir(), "gatecheck-mock-path-"));
try {
  process.stdout.write(`regime ${values.regime}, load average ${loadavg()[0]}\n`);
  const filed = createMockState({ recordFile: join(dir, "path.jsonl") });
  time(`answerTraffic, record file (${BATCH} a write)`, (i) => {
    sink = answerTraffic(rawOf(i), arrive(filed), filed);
    if (i % BATCH === BATCH - 1) filed.recorder.flush();
  });
  const state = createMockState({});
  time("answerTraffic, no record file", (i) => answerTraffic(rawOf(i), arrive(state), state));
  time("  judgeRequest (route, body facts)", (i) =>
    judgeRequest(rawOf(i), { seq: i, receivedAt: "2026-12-02T08:00:00.000Z" }, state),
  );
  time("    bodyFacts (parse, redact, nonce)", (i) => bodyFacts(bodyOf(i)));
  time("      JSON.parse alone", (i) => JSON.parse(bodyOf(i).toString("utf8")));
  // A Python client's bodies: every non-ASCII character a `\u` escape (load/request.ts).
  const escaped = bodiesOf(ESCAPED_LOAD_BODY, 1000);
  time("    bodyFacts, the same with \\u escapes", (i) => bodyFacts(escaped[i % 1000] as Buffer));
  const conversation = bodiesOf(ESCAPED_CONVERSATION_BODY, 100);
  time(
    "    bodyFacts, 37 KB conversation, escaped",
    (i) => bodyFacts(conversation[i % 100] as Buffer),
    2000,
  );
  const agent = bodiesOf(AGENT_CONVERSATION_BODY, 100);
  time("    bodyFacts, 20 tool calls' arguments", (i) => bodyFacts(agent[i % 100] as Buffer), 2000);
  const judged = judgeRequest(rawOf(0), { seq: 0, receivedAt: "2026-12-02T08:00:00.000Z" }, state);
  const wire = answerTraffic(rawOf(0), arrive(state), state) as WireReply;
  const lineOf = (i: number) =>
    trafficLine({
      seq: i,
      receivedAt: "2026-12-02T08:00:00.000Z",
      listener: "mock",
      raw: rawOf(i),
      route: judged.route,
      facts: bodyFacts(bodyOf(i)),
      model: judged.model,
      stream: false,
      reply: { status: 200, staged: false },
      replyHeaders: sentHeaders(wire),
      replyBytes: replyBytes(wire.frames),
    });
  const lines = Array.from({ length: 1000 }, (_, i) => lineOf(i));
  time("  the record line, a fresh memo", (i) => renderTrafficLine(lines[i % 1000] as never));
  const memo = new LineMemo();
  time("  the record line, the recorder's memo", (i) =>
    renderTrafficLine(lines[i % 1000] as never, memo),
  );
  const recorder = new Recorder();
  time("  render + keep (addTraffic, no file)", (i) => {
    const line = lines[i % 1000] as ReturnType<typeof lineOf>;
    recorder.addTraffic({ ...line, seq: i, nonce: nonceOf(i) });
  });
  process.stdout.write(`(${typeof sink})\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
