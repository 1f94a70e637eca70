import { describe, expect, it } from "vitest";
import { direct } from "../gateways/adapters/direct.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import {
  planCells,
  slowestFirst,
  stagedWaitMs,
  stagesUpstreamError,
  waitsOnTimer,
} from "./cells.ts";

const probe = (id: string) => {
  const found = CORPUS.find((p) => p.id === id);
  if (!found) throw new Error(`no probe ${id}`);
  return found;
};

describe("stagedWaitMs", () => {
  it("sums wire-plan delays and retry-after seconds, and is 0 for a plain probe", () => {
    expect(stagedWaitMs(probe("oc-failure-deadline-slow-upstream"))).toBe(1500);
    expect(stagedWaitMs(probe("oc-retry-429-then-ok"))).toBe(1000);
    expect(stagedWaitMs(probe("oc-temperature"))).toBe(0);
  });
});

describe("waitsOnTimer", () => {
  it("counts a staged upstream error as a wait only on a gateway that sleeps before retrying", () => {
    for (const id of ["oc-error-empty-500", "oc-failure-status-400", "oc-retry-503-then-ok"]) {
      expect(stagesUpstreamError(probe(id)), id).toBe(true);
      expect(waitsOnTimer(probe(id)), id).toBe(false);
      expect(waitsOnTimer(probe(id), { sleepsBeforeRetry: true }), id).toBe(true);
    }
    expect(stagesUpstreamError(probe("oc-temperature"))).toBe(false);
    expect(waitsOnTimer(probe("oc-temperature"), { sleepsBeforeRetry: true })).toBe(false);
    // A staged delay is a wait on every gateway.
    expect(waitsOnTimer(probe("oc-failure-deadline-slow-upstream"))).toBe(true);
  });
});

describe("slowestFirst", () => {
  it("starts the cells with staged waits first and keeps the rest in plan order", () => {
    const routes = direct.routes({ name: "direct", version: "0" });
    const planned = planCells("direct@0", routes, CORPUS, { modes: ["non-stream"] });
    const ordered = slowestFirst(planned);
    expect(ordered).toHaveLength(planned.length);
    const waits = ordered.map((c) => stagedWaitMs(c.probe));
    expect(waits[0]).toBe(Math.max(...waits));
    expect(waits).toEqual([...waits].sort((a, b) => b - a));
    const plain = (cells: typeof planned) => cells.filter((c) => stagedWaitMs(c.probe) === 0);
    expect(plain(ordered)).toEqual(plain(planned));
  });
});
