/**
 * The mock under load, measured the way a gateway author measures it: an external load
 * generator (wrk, else autocannon, in its own process on core 0) against servers in their
 * own processes (on core 1): `gatecheck mock --record` (JSON default replies, and a staged
 * 200-event SSE stream), a bare `node:http` server answering the same bytes (one write per
 * SSE event), CopilotKit aimock (journal on) and @dwmkerr/mock-llm. Rounds interleave the
 * servers, the order turning each round, and each measured round follows `--settle` seconds
 * of unmeasured load on its server: between its rounds a server waits idle for the others,
 * and what it does on waking (V8 shrinks an idle heap, then grows it again) is not what a
 * load test of minutes sees. Two regimes, each after a prefill that fills the mock's record
 * memory, as any load test longer than a few seconds does: a fresh nonce per request, and
 * one nonce shared by every request (a gateway load test repeating one probe body). Prints
 * per server the median requests/s, p50 and p99 latency and the server's CPU per request
 * (every thread, the recorder's catch-up after the load included), the ratios against the
 * targets, and the records' catch-up. Its flags: `--help`.
 */
import { existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { benchArgs, numberFlag, usageError } from "./bench-args.ts";
import {
  availableGenerator,
  type LoadSpec,
  type NonceRegime,
  pinning,
  runLoad,
} from "./load/generator.ts";
import { regimeSummary, regimeText, type Sample } from "./load/report.ts";
import { LOAD_AUTHORIZATION, LOAD_BODY, SHARED_NONCE } from "./load/request.ts";
import {
  type BareReply,
  processCpuMicros,
  type RunningServer,
  startAimock,
  startBare,
  startGatecheckMock,
  startMockLlm,
} from "./load/servers.ts";
import { BENCH_PRIORITY, raisePriority } from "./priority.ts";

const USAGE = `
Usage: npx tsx scripts/bench/mock-load.ts [options]

  --seconds S         length of each measured round (default 5)
  --rounds N          measured rounds of every server (default 5)
  --connections N     keep-alive connections of the load generator (default 32)
  --regimes a,b       distinct (a fresh nonce per request), shared (one nonce), or both
                      (default distinct,shared)
  --generator G       wrk or autocannon (default: wrk where installed)
  --json              print one JSON summary instead of text
  --mock-root DIR     the mock of another checkout (a \`git worktree\` of an older commit)
  --before-root DIR   also run that checkout's mock, as mock-before, in the same rounds
  --servers a,b       only these: bare-json, mock, mock-nofile, mock-before, aimock, mock-llm,
                      bare-sse, mock-sse (mock-nofile, the mock without --record, runs only
                      when named)
  --priority N        the nice value to run at (default ${BENCH_PRIORITY}: ahead of other work)
  --settle S          seconds of unmeasured load before each measured round (default 1)
  -h, --help          this text
`;

const { values } = benchArgs(USAGE, {
  seconds: { type: "string", default: "5" },
  rounds: { type: "string", default: "5" },
  connections: { type: "string", default: "32" },
  regimes: { type: "string", default: "distinct,shared" },
  generator: { type: "string" },
  "mock-root": { type: "string" },
  "before-root": { type: "string" },
  servers: { type: "string" },
  json: { type: "boolean", default: false },
  priority: { type: "string", default: String(BENCH_PRIORITY) },
  settle: { type: "string", default: "1" },
});
const SECONDS = numberFlag(USAGE, "seconds", values.seconds, { min: 1, integer: true });
const ROUNDS = numberFlag(USAGE, "rounds", values.rounds, { min: 1, integer: true });
const SETTLE = numberFlag(USAGE, "settle", values.settle);
const CONNECTIONS = numberFlag(USAGE, "connections", values.connections, {
  min: 1,
  integer: true,
});
const REGIMES = values.regimes.split(",") as NonceRegime[];
for (const regime of REGIMES) {
  if (regime !== "distinct" && regime !== "shared") {
    usageError(USAGE, `--regimes: expected distinct or shared, got ${JSON.stringify(regime)}`);
  }
}
const PRIORITY = raisePriority(
  numberFlag(USAGE, "priority", values.priority, { min: -20, integer: true }),
);
const SERVERS = [
  "bare-json",
  "mock",
  "mock-nofile",
  "mock-before",
  "aimock",
  "mock-llm",
  "bare-sse",
  "mock-sse",
];
const WANTED = values.servers?.split(",");
for (const name of WANTED ?? []) {
  if (!SERVERS.includes(name)) {
    usageError(USAGE, `--servers: no server ${JSON.stringify(name)}; known: ${SERVERS.join(", ")}`);
  }
}
for (const flag of ["mock-root", "before-root"] as const) {
  const root = values[flag];
  if (root !== undefined && !existsSync(join(root, "scripts/gatecheck.mjs"))) {
    usageError(USAGE, `--${flag}: ${root} is not a gatecheck checkout (no scripts/gatecheck.mjs)`);
  }
}
if (values.generator !== undefined && !["wrk", "autocannon"].includes(values.generator)) {
  usageError(USAGE, `--generator: expected wrk or autocannon, got ${values.generator}`);
}
const GENERATOR = availableGenerator(values.generator);
const GENERATOR_PIN = pinning(0);
const SERVER_PIN = pinning(1);
const SSE_EVENTS = 200;

const HEADERS = {
  "content-type": "application/json",
  authorization: LOAD_AUTHORIZATION,
};

const dir = mkdtempSync(join(tmpdir(), "gatecheck-mock-load-"));

function spec(url: string, regime: NonceRegime, seconds = SECONDS): LoadSpec {
  return {
    url: `${url}/v1/chat/completions`,
    headers: HEADERS,
    body: LOAD_BODY,
    nonce: regime,
    sharedNonce: SHARED_NONCE,
    seconds,
    connections: CONNECTIONS,
  };
}

/** The SSE stream the mock stages and the bare server copies: 200 Chat chunks and [DONE]. */
function sseSpec(): unknown {
  const chunk = (i: number) => ({
    id: "chatcmpl-bench",
    object: "chat.completion.chunk",
    created: 1_735_689_600,
    model: "gpt-4o-mini",
    choices: [
      { index: 0, delta: { content: `word ${i} of the streamed answer ` }, finish_reason: null },
    ],
  });
  const events = Array.from({ length: SSE_EVENTS - 1 }, (_, i) => ({ data: chunk(i) }));
  return { times: "always", reply: { body: { sse: [...events, { data: "[DONE]" }] } } };
}

/** Headers a bare server copies from the mock's reply (Node adds date and framing itself). */
function copiedHeaders(res: Response): [string, string][] {
  const skip = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);
  return [...res.headers.entries()].filter(([k]) => !skip.has(k));
}

async function mockReply(url: string, sse: boolean): Promise<BareReply> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: HEADERS,
    body: LOAD_BODY.replace("{NONCE}", SHARED_NONCE),
  });
  const body = Buffer.from(await res.arrayBuffer());
  if (!sse) return { headers: copiedHeaders(res), body };
  const text = body.toString("utf8");
  const events = text.split(/(?<=\n\n)/).map((e) => Buffer.from(e));
  if (events.length !== SSE_EVENTS) throw new Error(`the mock sent ${events.length} events`);
  return { headers: copiedHeaders(res), events };
}

/** The lines a record file has gained since `offset` bytes, and its size now. */
function linesSince(file: string, offset: number): { lines: number; size: number } {
  const size = statSync(file).size;
  const fd = openSync(file, "r");
  const buffer = Buffer.alloc(1024 * 1024);
  let lines = 0;
  for (let at = offset; at < size; ) {
    const n = readSync(fd, buffer, 0, Math.min(buffer.length, size - at), at);
    for (let i = 0; i < n; i++) if (buffer[i] === 10) lines++;
    at += n;
  }
  return { lines, size };
}

/** Milliseconds until a record file stops growing (the recorder has caught up). */
async function catchUp(file: string): Promise<number> {
  const started = performance.now();
  let size = statSync(file).size;
  let stableSince = performance.now();
  while (performance.now() - stableSince < 300) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const now = statSync(file).size;
    if (now !== size) {
      size = now;
      stableSince = performance.now();
    }
  }
  return Math.max(0, stableSince - started);
}

async function measure(server: RunningServer, regime: NonceRegime, offsets: Map<string, number>) {
  if (SETTLE > 0) await runLoad(GENERATOR, spec(server.url, regime, SETTLE), dir, GENERATOR_PIN);
  const cpuBefore = processCpuMicros(server.pid);
  const run = await runLoad(GENERATOR, spec(server.url, regime), dir, GENERATOR_PIN);
  const sample: Sample = {
    perSecond: run.perSecond,
    p50Ms: run.p50Ms,
    p99Ms: run.p99Ms,
    cpuMicros: 0,
    errors: run.errors,
  };
  if (server.recordFile) {
    sample.catchUpMs = await catchUp(server.recordFile);
    const { lines, size } = linesSince(server.recordFile, offsets.get(server.name) ?? 0);
    offsets.set(server.name, size);
    sample.linesPerRequest = lines / run.requests;
  }
  sample.cpuMicros = (processCpuMicros(server.pid) - cpuBefore) / run.requests;
  return sample;
}

async function health(url: string): Promise<{ records: number; evicted?: number }> {
  return (await (await fetch(`${url}/__gatecheck/health`)).json()) as {
    records: number;
    evicted?: number;
  };
}

/**
 * Fill the mock's record memory with the regime's requests (100,000 records or 256 MiB of
 * lines, whichever comes first: a 200-event stream's records fill the bytes first), so every
 * measured request evicts one.
 */
async function prefill(server: RunningServer, regime: NonceRegime) {
  while (((await health(server.url)).evicted ?? 0) === 0) {
    await runLoad(GENERATOR, spec(server.url, regime, 3), dir, GENERATOR_PIN);
  }
}

const wanted = (name: string) => !WANTED || WANTED.includes(name);

async function startAll(): Promise<RunningServer[]> {
  const root = values["mock-root"];
  const beforeRoot = values["before-root"];
  const mockJson = await startGatecheckMock(
    SERVER_PIN,
    join(dir, `json-${Date.now()}.jsonl`),
    root,
  );
  const servers = [mockJson];
  // The bare servers copy the mock's replies, so the mocks start first and stay until then.
  const bareJson = await startBare(SERVER_PIN, dir, await mockReply(mockJson.url, false));
  servers.unshift(bareJson);
  // Only when named: the targets are judged with a record file, as the issue states them.
  if (WANTED?.includes("mock-nofile")) {
    const nofile = await startGatecheckMock(SERVER_PIN, undefined, root);
    nofile.name = "mock-nofile";
    servers.push(nofile);
  }
  if (beforeRoot && wanted("mock-before")) {
    const before = await startGatecheckMock(
      SERVER_PIN,
      join(dir, `before-${Date.now()}.jsonl`),
      beforeRoot,
    );
    before.name = "mock-before";
    servers.push(before);
  }
  if (wanted("aimock")) {
    servers.push(await startAimock(SERVER_PIN, dir, "Hello from the gatecheck mock."));
  }
  if (wanted("mock-llm")) servers.push(await startMockLlm(SERVER_PIN));
  if (wanted("mock-sse") || wanted("bare-sse")) {
    const mockSse = await startGatecheckMock(
      SERVER_PIN,
      join(dir, `sse-${Date.now()}.jsonl`),
      root,
    );
    mockSse.name = "mock-sse";
    await fetch(`${mockSse.url}/__gatecheck/replies`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(sseSpec()),
    });
    servers.push(await startBare(SERVER_PIN, dir, await mockReply(mockSse.url, true)), mockSse);
  }
  const kept = servers.filter((s) => wanted(s.name));
  await Promise.all(servers.filter((s) => !kept.includes(s)).map((s) => s.stop()));
  return kept;
}

async function regimeRun(regime: NonceRegime) {
  const servers = await startAll();
  const samples = new Map<string, Sample[]>(servers.map((s) => [s.name, []]));
  const offsets = new Map<string, number>();
  try {
    for (const server of servers) {
      await runLoad(GENERATOR, spec(server.url, regime, 2), dir, GENERATOR_PIN); // warm-up
      if (server.keepsRecords) await prefill(server, regime);
      if (server.recordFile) {
        await catchUp(server.recordFile);
        offsets.set(server.name, statSync(server.recordFile).size);
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      const turn = round % servers.length;
      for (const server of [...servers.slice(turn), ...servers.slice(0, turn)]) {
        samples.get(server.name)?.push(await measure(server, regime, offsets));
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  return samples;
}

const report: Record<string, unknown> = {
  generator: GENERATOR,
  pinned: GENERATOR_PIN.length > 0,
  seconds: SECONDS,
  rounds: ROUNDS,
  connections: CONNECTIONS,
  loadBefore: loadavg()[0],
  priority: PRIORITY,
};
try {
  for (const regime of REGIMES) {
    const samples = await regimeRun(regime);
    const summary = regimeSummary(samples);
    report[regime] = summary;
    if (!values.json) {
      process.stdout.write(
        regimeText(`${regime} nonces (${GENERATOR}, ${SECONDS} s x ${ROUNDS} rounds)`, summary),
      );
    }
  }
  report.loadAfter = loadavg()[0];
  if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else
    process.stdout.write(
      `load average ${report.loadBefore} before, ${report.loadAfter} after; ${PRIORITY}\n`,
    );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
