/**
 * The benchmark's load generator where wrk is not installed: autocannon, in a Node process
 * of its own, planting a nonce per request (or the shared one). Prints the same summary line
 * as the wrk script: `RESULT {"requests","durationUs","errors","p50","p99"}` (µs latencies).
 *
 *   node scripts/bench/load/autocannon-client.mjs SPEC.json   (a LoadSpec, generator.ts)
 */
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

const spec = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8"));
const [before, after] = spec.body.split("{NONCE}");
const prefix = Math.floor(Math.random() * 2 ** 31)
  .toString(16)
  .padStart(8, "0");
let counter = 0;
const nonce = () =>
  spec.nonce === "shared"
    ? spec.sharedNonce
    : `gc-${prefix}${(++counter).toString(16).padStart(8, "0")}`;

const started = process.hrtime.bigint();
const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.seconds,
  method: "POST",
  headers: spec.headers,
  requests: [{ setupRequest: (req) => ({ ...req, body: before + nonce() + after }) }],
});
const durationUs = Number((process.hrtime.bigint() - started) / 1000n);
process.stdout.write(
  `RESULT ${JSON.stringify({
    requests: result.requests.total,
    durationUs,
    errors: result.errors + result.timeouts + result.non2xx,
    p50: result.latency.p50 * 1000,
    p99: result.latency.p99 * 1000,
  })}\n`,
);
