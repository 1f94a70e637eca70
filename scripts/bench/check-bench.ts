/**
 * The lens's throughput: `judgeExchange` on a typical non-stream exchange (parse the file,
 * read four sides, judge every field) and on a 2,000-event stream. Rescoring a stored sweep
 * calls it hundreds of thousands of times. Target: ≥ 20,000 typical exchanges/s on one core.
 * Baseline in the same run: JSON.parse of the same bytes, so the ratio survives a slower or
 * busier machine.
 *
 *   npx tsx scripts/bench/check-bench.ts [--time 2000]
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { Bench } from "tinybench";
import type { CanonicalReply } from "../../dialects/canonical.ts";
import { encodeEvents, writeReplyEvents } from "../../dialects/reply.ts";
import { parseExchangeText } from "../../probes/exchange.ts";
import { judgeExchange, readExchange } from "../../probes/lens/judge-exchange.ts";
import { judgeRead } from "../../probes/lens/judge-read.ts";

const timeIndex = process.argv.indexOf("--time");
const TIME = timeIndex > 0 ? Number(process.argv[timeIndex + 1]) : 2000;
const FIXTURES = join(import.meta.dirname, "..", "..", "probes", "lens", "fixtures");

const typical = readFileSync(join(FIXTURES, "anthropic-to-chat-non-stream-faithful.json"), "utf8");

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

const stream = streamExchange();
const typicalExchange = parseExchangeText(typical);
const streamEvents = judgeExchange(parseExchangeText(stream)).find(
  (v) => v.field === "stream.framing",
)?.reason;

const bench = new Bench({ time: TIME, warmup: true });
bench
  .add("baseline: JSON.parse (typical exchange bytes)", () => JSON.parse(typical))
  .add("judgeExchange: typical non-stream exchange", () =>
    judgeExchange(parseExchangeText(typical)),
  )
  .add("  of which parseExchangeText (zod)", () => parseExchangeText(typical))
  .add("  of which readExchange (dialect readers)", () => readExchange(typicalExchange))
  .add("  of which readExchange + judgeRead", () => judgeRead(readExchange(typicalExchange)))
  .add("baseline: JSON.parse (2,000-event stream exchange bytes)", () => JSON.parse(stream))
  .add("judgeExchange: 2,000-event stream exchange", () =>
    judgeExchange(parseExchangeText(stream)),
  );

await bench.run();

/** Mean operations per second of a finished task. */
function opsPerSecond(task: { result?: unknown }): number {
  const result = task.result as { throughput?: { mean: number } } | undefined;
  return result?.throughput?.mean ?? 0;
}

const hz = (name: string) => opsPerSecond(bench.tasks.find((t) => t.name.startsWith(name)) ?? {});
const rows = bench.tasks.map((t) => ({
  task: t.name,
  "ops/s": Math.round(opsPerSecond(t)).toLocaleString("en-US"),
}));
console.table(rows);
const typicalHz = hz("judgeExchange: typical");
const streamHz = hz("judgeExchange: 2,000");
console.log(`typical: ${typical.length} bytes; stream: ${stream.length} bytes (${streamEvents})`);
console.log(
  `typical exchange: ${Math.round(typicalHz)} /s = ${(hz("baseline: JSON.parse (typical") / typicalHz).toFixed(1)}× the cost of JSON.parse of the same bytes`,
);
console.log(
  `2,000-event stream: ${Math.round(streamHz)} /s = ${(hz("baseline: JSON.parse (2,000") / streamHz).toFixed(1)}× the cost of JSON.parse of the same bytes`,
);
console.log(
  `target ≥ 20,000 typical/s: ${typicalHz >= 20_000 ? "met" : "NOT met"} (load average ${loadavg()[0]?.toFixed(2)})`,
);
