/**
 * One real recorded exchange stored the way the sweep stores an attempt, for the tests of
 * `exportExchange` and `gatecheck export`.
 */
import { join } from "node:path";
import type { WireExchange } from "../dialects/wire/exchange.ts";
import type { CellRecord } from "../results/records.ts";
import { openStore } from "../results/store.ts";

export const RUN = "2026-11-30T04-20-13Z-c5b1";
export const FIXTURE = join(
  import.meta.dirname,
  "..",
  "probes",
  "lens",
  "fixtures",
  "real",
  "portkey-oc-seed-anthropic-messages-non-stream.json",
);

export const CELL: CellRecord = {
  runId: RUN,
  column: "portkey@1.15.2",
  routeId: "openai-chat->anthropic-messages",
  probeId: "oc-seed",
  mode: "non-stream",
  clientDialect: "openai-chat",
  backendDialect: "anthropic-messages",
  definitionHash: "h1",
  subject: "sampling.seed",
  verdict: "no-equivalent",
  reason: "seed: 424242 → absent",
  runs: 1,
  counts: { "no-equivalent": 1 },
  determinism: 1,
  stable: true,
};

/** Stores the fixture's exchange the way the sweep stores an attempt. */
export function storeAttempt(path: string, exchange: WireExchange): void {
  const store = openStore(path);
  store.beginRun({
    id: RUN,
    startedAt: "2026-11-30T04:20:13.000Z",
    gatecheckVersion: "0",
    args: {},
  });
  store.putGatewayRun({
    runId: RUN,
    gateway: "portkey",
    version: "1.15.2",
    column: CELL.column,
    status: "ok",
  });
  store.putProbes([
    {
      probeId: "oc-seed",
      definitionHash: "h1",
      clientDialect: "openai-chat",
      axis: "request",
      field: "seed",
      subject: "sampling.seed",
      severity: "low",
      definition: {},
    },
  ]);
  const writer = store.cellWriter();
  writer.add({
    cell: CELL,
    attempts: [
      {
        ...CELL,
        attemptNo: 1,
        phase: "main",
        status: "ok",
        timings: { totalMs: 191 },
        exchange,
        verdicts: [],
      },
    ],
  });
  writer.close();
  store.close();
}
