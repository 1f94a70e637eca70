import { describe, expect, it } from "vitest";
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

const at = (ms: number) => ({
  receivedAt: new Date(Date.UTC(2026, 10, 30, 3, 0, 0, ms)).toISOString(),
});

describe("figuresOfAttempt", () => {
  it("counts forwarded requests, their gaps and the client's wait from stored JSON", () => {
    const f = figuresOfAttempt(cell("gw", "oc-failure-retry-400", "mangled"), {
      forwarded: [at(0), at(12), at(1030)],
      timings: { totalMs: 1100, chunks: 1 },
      clientResponse: { status: 400 },
    });
    expect(f).toMatchObject({ attempts: 3, gapsMs: [12, 1018], totalMs: 1100, clientStatus: 400 });
  });
  it("keeps the count but no gaps when arrival times are missing or malformed", () => {
    const f = figuresOfAttempt(cell("gw", "oc-failure-retry-400", "mangled"), {
      forwarded: [{}, "junk"],
      timings: "junk",
      clientResponse: null,
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
      forwarded: [at(0)],
      timings: { totalMs: 8 },
      clientResponse: { status: 400 },
    }),
    figuresOfAttempt(cells[2] as CellRecord, {
      forwarded: [at(0), at(3), at(7)],
      timings: { totalMs: 21 },
      clientResponse: { status: 400 },
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
