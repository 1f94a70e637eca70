/**
 * Load benchmark: the mock (recording on, to a temp JSONL file) against a bare `node:http`
 * server that answers the same bytes without recording, at the same concurrency, with the
 * same client, in one process run. Prints requests/s and p50/p99 latency for each and the
 * ratio (target: the mock at >= 0.8 of bare). Rounds alternate which side goes first
 * (bare-mock, mock-bare, ...) so a machine that gets busier or quieter over the run hits
 * both sides alike; the headline is the median of the per-round ratios.
 *
 *   npx tsx scripts/bench/mock-load.ts [--seconds 2] [--concurrency 32] [--rounds 7]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startMock } from "../../mock-upstream/index.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "2" },
    concurrency: { type: "string", default: "32" },
    rounds: { type: "string", default: "7" },
  },
});
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);
const ROUNDS = Number(values.rounds);

const BODY = JSON.stringify({
  model: "gpt-4o-mini",
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "Say hello. gc-0123456789abcdef" },
  ],
  temperature: 0.3,
});
const HEADERS = {
  "content-type": "application/json",
  authorization: "Bearer sk-proj-benchbenchbenchbench",
};

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Process CPU (user + system) per request: client and server share the process. */
  cpuMicrosPerRequest: number;
  /**
   * The main thread's CPU per request (Linux only; 10 ms ticks): the thread the client
   * and both servers share, which is what limits throughput here. The mock's recorder
   * thread counts in the process CPU above but not here.
   */
  mainThreadMicrosPerRequest: number | undefined;
}

/** The main thread's user + system CPU in microseconds, from /proc (undefined elsewhere). */
function mainThreadMicros(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    // Fields after the command name, which ends with ") "; utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

function once(url: URL, agent: Agent): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", agent, headers: { ...HEADERS, "content-length": Buffer.byteLength(BODY) } },
      (res) => {
        res.on("data", () => {});
        res.on("end", () => resolve(performance.now() - started));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(BODY);
  });
}

async function load(
  base: string,
  path: string,
  concurrency = CONCURRENCY,
  seconds = SECONDS,
): Promise<LoadResult> {
  const url = new URL(path, base);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const mainBefore = mainThreadMicros();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) latencies.push(await once(url, agent));
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const mainAfter = mainThreadMicros();
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    cpuMicrosPerRequest: (cpu.user + cpu.system) / Math.max(1, latencies.length),
    mainThreadMicrosPerRequest:
      mainBefore === undefined || mainAfter === undefined
        ? undefined
        : (mainAfter - mainBefore) / Math.max(1, latencies.length),
  };
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

/** A bare server answering every request with the given bytes after reading the body. */
function bareServer(contentType: string, body: Buffer): Server {
  return createServer((req, res) => {
    req.on("data", () => {});
    req.on("end", () => {
      res.writeHead(200, { "content-type": contentType, "content-length": body.length });
      res.end(body);
    });
  });
}

/** A bare server writing the same events one write each, chunked, like the mock's default plan. */
function bareStreamServer(events: readonly Buffer[]): Server {
  return createServer((req, res) => {
    req.on("data", () => {});
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
      for (const e of events) res.write(e);
      res.end();
    });
  });
}

function best(results: LoadResult[]): LoadResult {
  return results.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The result of median throughput among rounds (its latencies come with it). */
function medianRound(results: LoadResult[]): LoadResult {
  const sorted = [...results].sort((a, b) => a.perSecond - b.perSecond);
  return sorted[Math.floor((sorted.length - 1) / 2)] as LoadResult;
}

const fmt = (r: LoadResult) =>
  `${r.perSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  (${r.requests} requests)`;

const load1 = () => (loadavg()[0] ?? 0).toFixed(2);

/**
 * Each round is a pair: bare and mock back to back, the order alternating from round to
 * round. Wall-clock throughput swings with the machine's load, so only ratios within a
 * pair count; their median is the figure the target applies to. CPU time per request
 * (user + system of the whole process, client included) moves less with load and is
 * printed as a second view: bare CPU over mock CPU.
 */
async function rounds(
  bareUrl: string,
  mockUrl: string,
  run: (base: string) => Promise<LoadResult>,
): Promise<{ bare: LoadResult[]; mock: LoadResult[] }> {
  const bare: LoadResult[] = [];
  const mock: LoadResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      bare.push(await run(bareUrl));
      mock.push(await run(mockUrl));
    } else {
      mock.push(await run(mockUrl));
      bare.push(await run(bareUrl));
    }
  }
  return { bare, mock };
}

function summarize(bare: LoadResult[], mock: LoadResult[], unit: string): number {
  const perRound = bare.map((r, i) => (mock[i]?.perSecond ?? 0) / r.perSecond);
  const bareCpu = median(bare.map((r) => r.cpuMicrosPerRequest));
  const mockCpu = median(mock.map((r) => r.cpuMicrosPerRequest));
  const ratio = median(perRound);
  console.log(
    `  bare node:http   ${fmt(medianRound(bare)).replace("req/s", unit)}  (median round)`,
  );
  console.log(
    `  mock (recording) ${fmt(medianRound(mock)).replace("req/s", unit)}  (median round)`,
  );
  console.log(`  ratio mock/bare  ${ratio.toFixed(2)} median of rounds  (target >= 0.8)`);
  console.log(
    `  per-round ratios ${perRound.map((r) => r.toFixed(2)).join(" ")}  (best rounds: ${(best(mock).perSecond / best(bare).perSecond).toFixed(2)})`,
  );
  console.log(
    `  CPU per request  bare ${bareCpu.toFixed(0)} µs, mock ${mockCpu.toFixed(0)} µs (client included; medians)  ratio ${(bareCpu / mockCpu).toFixed(2)}`,
  );
  const bareMain = bare.map((r) => r.mainThreadMicrosPerRequest);
  const mockMain = mock.map((r) => r.mainThreadMicrosPerRequest);
  if (bareMain.every((v) => v !== undefined) && mockMain.every((v) => v !== undefined)) {
    const b = median(bareMain as number[]);
    const m = median(mockMain as number[]);
    console.log(
      `  main thread      bare ${b.toFixed(0)} µs, mock ${m.toFixed(0)} µs per request (client included; medians)  ratio ${(b / m).toFixed(2)}`,
    );
  }
  return ratio;
}

/** Lines in the record file: the records that reached the disk, not only memory. */
function fileLines(file: string): number {
  return readFileSync(file, "utf8").split("\n").length - 1;
}

/**
 * The record file's lines once it holds `expected` (the recorder thread writes a line
 * shortly after its reply), or what it holds after `timeoutMs`.
 */
async function linesOnDisk(file: string, expected: number, timeoutMs = 10_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const lines = fileLines(file);
    if (lines >= expected || performance.now() > deadline) return lines;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "gatecheck-bench-"));
  const recordFile = join(dir, "records.jsonl");
  const mock = await startMock({ recordFile, name: "bench" });
  try {
    // The bare server returns exactly the bytes the mock answers this request with.
    const sample = await fetch(`${mock.url}/v1/chat/completions`, {
      method: "POST",
      headers: HEADERS,
      body: BODY,
    });
    const sampleBody = Buffer.from(await sample.arrayBuffer());
    const bare = bareServer(sample.headers.get("content-type") ?? "application/json", sampleBody);
    const bareUrl = await listen(bare);

    console.log(
      `JSON replies: ${CONCURRENCY} concurrent, ${SECONDS} s per side, ${ROUNDS} rounds, load average ${load1()}`,
    );
    // Warm-up (not counted): JIT, connection pools, the record file.
    await load(bareUrl, "/v1/chat/completions", CONCURRENCY, 1);
    await load(mock.url, "/v1/chat/completions", CONCURRENCY, 1);
    const json = await rounds(bareUrl, mock.url, (base) => load(base, "/v1/chat/completions"));
    summarize(json.bare, json.mock, "req/s");
    const recorded = mock.recorded();
    const onDisk = await linesOnDisk(recordFile, recorded);
    console.log(
      `  records on disk  ${onDisk} lines of ${recorded} requests (load average now ${load1()})`,
    );
    bare.close();
    bare.closeAllConnections();
    mock.reset();

    // A 2,000-event SSE stream with the default chunk plan (one write per event).
    const sse = Array.from({ length: 2000 }, (_, i) => ({
      data: {
        id: "chatcmpl-bench",
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta: { content: `tok${i} ` } }],
      },
    }));
    mock.stage({ times: "always", reply: { body: { sse } } });
    const streamSample = await fetch(`${mock.url}/v1/chat/completions`, {
      method: "POST",
      headers: HEADERS,
      body: BODY,
    });
    const streamBytes = Buffer.from(await streamSample.arrayBuffer());
    const events = streamBytes
      .toString("utf8")
      .split(/(?<=\n\n)/)
      .map((e) => Buffer.from(e));
    const bareStream = bareStreamServer(events);
    const bareStreamUrl = await listen(bareStream);
    const streamConcurrency = 4;
    const loadStreams = (base: string) => load(base, "/v1/chat/completions", streamConcurrency);
    console.log(
      `SSE streams of ${events.length} events (${streamBytes.length} bytes): ${streamConcurrency} concurrent, load average ${load1()}`,
    );
    await load(bareStreamUrl, "/v1/chat/completions", streamConcurrency, 1);
    await load(mock.url, "/v1/chat/completions", streamConcurrency, 1);
    const { bare: bareStreams, mock: mockStreams } = await rounds(
      bareStreamUrl,
      mock.url,
      loadStreams,
    );
    summarize(bareStreams, mockStreams, "streams/s");
    const events2k = (r: LoadResult) => `${(r.perSecond * events.length).toFixed(0)} events/s`;
    console.log(
      `  events/s         bare ${events2k(medianRound(bareStreams))}, mock ${events2k(medianRound(mockStreams))} (median rounds)`,
    );
    bareStream.close();
    bareStream.closeAllConnections();
  } finally {
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
