/**
 * The lens's throughput: `judgeExchange(parseExchangeText(...))`, what `gatecheck check` does
 * per file, on typical non-stream exchanges and on a 2,000-event stream. Rescoring a stored
 * sweep calls the lens hundreds of thousands of times. Target: ≥ 20,000 typical exchanges/s
 * on one core.
 *
 * "Typical" is what a sweep stores: the non-stream exchanges recorded from real gateways
 * (`probes/lens/fixtures/real/*-non-stream.json`, exported from a sweep database: a probe
 * request, the gateway's forwarded request as raw text with its ~10 headers, raw reply bodies),
 * judged in rotation. The hand-written `anthropic-to-chat-non-stream-faithful.json` (tools, a
 * tool turn, every sampling field) is measured beside it as a rich exchange. Each task has a
 * baseline in the same run, JSON.parse of the same bytes, so the ratio survives a slower or
 * busier machine; the load average is printed with the figures.
 *
 * `--fixed N` (see `--help`) times nothing: it judges the typical set 3,000 times (warm-up)
 * and then N more, for an instruction count, which the load of other processes does not move
 * (docs/lens.md):
 *
 *   valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
 *     node --single-threaded --import tsx scripts/bench/check-bench.ts --fixed 3000
 *
 * and the same with `--fixed 0`; the difference over N is the instructions per exchange.
 */
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { Bench } from "tinybench";
import type { CanonicalReply } from "../../dialects/canonical.ts";
import { encodeEvents, writeReplyEvents } from "../../dialects/reply.ts";
import { parseExchangeText } from "../../probes/exchange.ts";
import { judgeExchange, readExchange } from "../../probes/lens/judge-exchange.ts";
import { judgeRead } from "../../probes/lens/judge-read.ts";
import { benchArgs, numberFlag } from "./bench-args.ts";

const USAGE = `
Usage: npx tsx scripts/bench/check-bench.ts [options]

  --time MS     milliseconds each task is timed for (default 2000)
  --fixed N     time nothing: judge the typical set 3,000 times, then N more (for valgrind)
  -h, --help    this text
`;

const { values } = benchArgs(USAGE, {
  time: { type: "string", default: "2000" },
  fixed: { type: "string" },
});
const TIME = numberFlag(USAGE, "time", values.time, { min: 1 });
const FIXED =
  values.fixed === undefined
    ? undefined
    : numberFlag(USAGE, "fixed", values.fixed, { min: 0, integer: true });
const FIXTURES = join(import.meta.dirname, "..", "..", "probes", "lens", "fixtures");
const REAL = join(FIXTURES, "real");

const typical = readdirSync(REAL)
  .filter((name) => name.endsWith("-non-stream.json"))
  .sort()
  .map((name) => readFileSync(join(REAL, name), "utf8"));
if (typical.length === 0) throw new Error(`no recorded non-stream exchanges in ${REAL}`);
const rich = readFileSync(join(FIXTURES, "anthropic-to-chat-non-stream-faithful.json"), "utf8");

/** 2,000 events each way: an Anthropic stream upstream, a Chat stream to the client. */
function streamExchange(): string {
  const text = "x".repeat(1996);
  const reply: CanonicalReply = {
    dialect: "anthropic-messages",
    id: "msg_bench",
    parts: [{ type: "text", text }],
    stopReason: "stop",
    usage: { inputTokens: 10, outputTokens: 1996 },
    extras: {},
  };
  const upstream = encodeEvents(
    "anthropic-messages",
    writeReplyEvents("anthropic-messages", reply, { textChunkSize: 1 }),
  );
  const chat = { ...reply, dialect: "openai-chat" as const };
  const client = encodeEvents(
    "openai-chat",
    writeReplyEvents("openai-chat", chat, { textChunkSize: 1 }),
  );
  const body = {
    model: "claude",
    max_tokens: 2000,
    stream: true,
    messages: [{ role: "user", content: "NONCE go" }],
  };
  return JSON.stringify({
    route: { client: "openai-chat", backend: "anthropic-messages" },
    mode: "stream",
    clientRequest: { path: "/v1/chat/completions", headers: {}, body },
    forwarded: [{ method: "POST", path: "/v1/messages", headers: {}, body }],
    upstreamReply: { status: 200, headers: {}, body: upstream },
    clientResponse: { status: 200, headers: {}, body: client },
  });
}

if (FIXED !== undefined) {
  const runs = FIXED;
  for (let i = 0; i < 3000 + runs; i++) {
    const text = typical[i % typical.length] as string;
    judgeExchange(parseExchangeText(text));
  }
  console.log(`judged the typical set 3,000 + ${runs} times`);
  process.exit(0);
}

const stream = streamExchange();
const typicalExchanges = typical.map((text) => parseExchangeText(text));
const streamEvents = judgeExchange(parseExchangeText(stream)).find(
  (v) => v.field === "stream.framing",
)?.reason;

/** A task over the typical set: each call takes the next exchange, so all weigh the same. */
function rotating<T>(items: readonly T[], run: (item: T) => unknown): () => void {
  let i = 0;
  return () => {
    run(items[i] as T);
    i = (i + 1) % items.length;
  };
}

// The lens warmed up before any task is timed: the first task would otherwise pay for the
// JIT compiling every judge, which tinybench's short warm-up does not cover.
for (let i = 0; i < 300; i++) for (const text of typical) judgeExchange(parseExchangeText(text));
for (let i = 0; i < 3; i++) judgeExchange(parseExchangeText(stream));

const loadBefore = loadavg()[0] ?? 0;
const bench = new Bench({ time: TIME, warmup: true, warmupTime: 250 });
bench
  .add("typical: baseline JSON.parse", rotating(typical, JSON.parse))
  .add(
    "typical: judgeExchange(parseExchangeText)",
    rotating(typical, (t) => judgeExchange(parseExchangeText(t))),
  )
  .add("  of which parseExchangeText", rotating(typical, parseExchangeText))
  .add("  of which readExchange (dialect readers)", rotating(typicalExchanges, readExchange))
  .add(
    "  of which readExchange + judgeRead",
    rotating(typicalExchanges, (e) => judgeRead(readExchange(e))),
  )
  .add("rich: baseline JSON.parse", () => JSON.parse(rich))
  .add("rich: judgeExchange(parseExchangeText)", () => judgeExchange(parseExchangeText(rich)))
  .add("stream: baseline JSON.parse", () => JSON.parse(stream))
  .add("stream: judgeExchange(parseExchangeText)", () => judgeExchange(parseExchangeText(stream)));

await bench.run();

/**
 * Operations per second of a finished task: runs over total time (1000 / period). Not
 * tinybench's `throughput.mean`, the mean of each sample's instantaneous rate, which counts a
 * run slowed by a garbage collection as little as a fast one and so overstates the rate.
 */
function opsPerSecond(task: { result?: unknown }): number {
  const result = task.result as { period?: number } | undefined;
  return result?.period ? 1000 / result.period : 0;
}

const hz = (name: string) => opsPerSecond(bench.tasks.find((t) => t.name === name) ?? {});
console.table(
  bench.tasks.map((t) => ({
    task: t.name,
    "ops/s": Math.round(opsPerSecond(t)).toLocaleString("en-US"),
  })),
);
const sizes = typical.map((t) => t.length).join(", ");
console.log(
  `typical: ${typical.length} recorded exchanges (${sizes} bytes); rich: ${rich.length} bytes; stream: ${stream.length} bytes (${streamEvents})`,
);
for (const kind of ["typical", "rich", "stream"]) {
  const judged = hz(`${kind}: judgeExchange(parseExchangeText)`);
  const ratio = hz(`${kind}: baseline JSON.parse`) / judged;
  console.log(
    `${kind}: ${Math.round(judged).toLocaleString("en-US")} /s = ${ratio.toFixed(1)}× the cost of JSON.parse of the same bytes`,
  );
}
/**
 * The same typical task timed by the CPU time this process used rather than the clock: on a
 * shared, loaded machine the clock also counts the time other processes held the core. It
 * counts every thread of the process (the garbage collector's helpers too), so it errs low.
 */
function typicalPerCpuSecond(rounds: number): number {
  const judge = rotating(typical, (t) => judgeExchange(parseExchangeText(t)));
  const before = process.cpuUsage();
  for (let i = 0; i < rounds; i++) judge();
  const used = process.cpuUsage(before);
  return rounds / ((used.user + used.system) / 1e6);
}

const typicalHz = hz("typical: judgeExchange(parseExchangeText)");
const perCpu = typicalPerCpuSecond(Math.max(2000, Math.round(typicalHz * (TIME / 1000))));
const loadAfter = loadavg()[0] ?? 0;
console.log(
  `typical per CPU-second of this process: ${Math.round(perCpu).toLocaleString("en-US")} /s`,
);
console.log(
  `target ≥ 20,000 typical/s: ${typicalHz >= 20_000 ? "met" : "NOT met"} by the clock, ${perCpu >= 20_000 ? "met" : "NOT met"} by CPU time (load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after)`,
);
