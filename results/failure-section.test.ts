import { describe, expect, it } from "vitest";
import { textBytes } from "../dialects/wire/bytes.ts";
import type { WireExchange } from "../dialects/wire/exchange.ts";
import { figuresOfAttempt, renderFailureSection } from "./failure-section.ts";
import type { CellRecord, ProbeRecord } from "./records.ts";
import { probeKey, type RunView } from "./run-view.ts";

const probe = (probeId: string, axis: string, field: string): ProbeRecord =>
  ({ probeId, definitionHash: "h", clientDialect: "openai-chat", axis, field }) as ProbeRecord;

const cell = (column: string, probeId: string, verdict: CellRecord["verdict"], cause?: string) =>
  ({
    runId: "r",
    column,
    routeId: "openai-chat->openai-chat",
    probeId,
    mode: "non-stream",
    clientDialect: "openai-chat",
    backendDialect: "openai-chat",
    definitionHash: "h",
    verdict,
    reason: "",
    ...(cause ? { cause } : {}),
    runs: 1,
    counts: { [verdict]: 1 },
    determinism: 1,
    stable: true,
  }) as CellRecord;

function view(cells: CellRecord[]): RunView {
  const probes = [
    probe("oc-failure-retry-400", "failure", "failure.retries"),
    probe("oc-failure-status-503", "failure", "failure.status"),
    probe("oc-stop", "request", "stop"),
  ];
  return {
    run: { id: "r" },
    gatewayRuns: [],
    cells,
    probes: new Map(probes.map((p) => [probeKey(p.probeId, p.definitionHash), p])),
  } as unknown as RunView;
}

/** A stored exchange whose requests arrived at `arrivals` ms (to `hosts`), the client getting `status`. */
function stored(
  arrivals: number[],
  status: number | undefined,
  hosts: string[] = [],
  firstStatus?: number,
): WireExchange {
  const exchange: WireExchange = {
    route: { client: "openai-chat", backend: "openai-chat" },
    mode: "non-stream",
    clientRequest: {
      method: "POST",
      path: "/v1/chat/completions",
      headers: [],
      body: textBytes("{}"),
    },
    forwarded: arrivals.map((_, i) => ({
      method: "POST",
      path: "/v1/chat/completions",
      headers: hosts[i] ? [["host", hosts[i] as string]] : [],
      body: textBytes("{}"),
    })),
    timing: {
      forwarded: arrivals.map((atMs, i) =>
        i === 0 && firstStatus !== undefined ? { atMs, status: firstStatus } : { atMs },
      ),
    },
  };
  if (status !== undefined)
    exchange.clientResponse = { status, headers: [], body: textBytes("{}") };
  return exchange;
}

describe("figuresOfAttempt", () => {
  it("counts forwarded requests, their gaps, targets and the client's wait from the exchange", () => {
    const f = figuresOfAttempt(cell("gw", "oc-failure-retry-400", "mangled"), {
      exchange: stored([0, 12, 1030], 400, ["a:1", "a:1", "b:2"], 503),
      timings: { totalMs: 1100, chunks: 1 },
    });
    expect(f).toMatchObject({
      attempts: 3,
      gapsMs: [12, 1018],
      totalMs: 1100,
      clientStatus: 400,
      targets: 2,
      firstStatus: 503,
    });
    const unanswered = stored([0], undefined);
    unanswered.clientError = "ECONNRESET";
    expect(
      figuresOfAttempt(cell("gw", "oc-failure-retry-400", "error"), {
        exchange: unanswered,
        timings: {},
      }).clientStatus,
    ).toBe(0);
  });
  it("keeps the count but no gaps when arrival times are missing", () => {
    const exchange = stored([0, 5], undefined);
    delete exchange.timing;
    const f = figuresOfAttempt(cell("gw", "oc-failure-retry-400", "mangled"), {
      exchange,
      timings: "junk",
    });
    expect(f).toEqual({
      column: "gw",
      routeId: "openai-chat->openai-chat",
      probeId: "oc-failure-retry-400",
      mode: "non-stream",
      attempts: 2,
      gapsMs: [],
    });
  });
});

describe("renderFailureSection", () => {
  const cells = [
    cell("direct@0", "oc-failure-retry-400", "preserved"),
    cell("direct@0", "oc-failure-status-503", "preserved"),
    cell("bad@1", "oc-failure-retry-400", "mangled", "retried-non-retryable"),
    cell("bad@1", "oc-failure-status-503", "mangled", "status-relabelled"),
    cell("bad@1", "oc-stop", "dropped"),
  ];
  const figures = [
    figuresOfAttempt(cells[0] as CellRecord, {
      exchange: stored([0], 400),
      timings: { totalMs: 8 },
    }),
    figuresOfAttempt(cells[2] as CellRecord, {
      exchange: stored([0, 3, 7], 400),
      timings: { totalMs: 21 },
    }),
  ];
  it("summarises each column with its measured attempts and waits", () => {
    const md = renderFailureSection(view(cells), figures).join("\n");
    expect(md).toContain("| direct@0 | 2 | 2 | 0 | 1 | 8 ms |");
    expect(md).toContain("| bad@1 | 2 | 0 | 2 | 3 | 21 ms |");
    expect(md).toContain(
      "| bad@1 | oc-failure-retry-400 | non-stream | openai-chat->openai-chat | 3 | 3, 4 | 21 ms | 400 | mangled (retried-non-retryable) |",
    );
    expect(md).not.toContain("oc-stop");
  });
  it("says when figures were not loaded, and is absent without failure cells", () => {
    const md = renderFailureSection(view(cells)).join("\n");
    expect(md).toContain("| bad@1 | 2 | 0 | 2 | — | — |");
    expect(md).toContain("not loaded");
    expect(renderFailureSection(view([cell("bad@1", "oc-stop", "dropped")]))).toEqual([]);
  });
});
