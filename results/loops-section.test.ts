import { expect, it } from "vitest";
import { renderJunit } from "./junit-report.ts";
import type { LoopRecord } from "./loop-records.ts";
import {
  groupedLosses,
  renderLoopBreaksAppendix,
  renderLoopsSection,
  summarizeLoops,
} from "./loops-section.ts";
import type { RunView } from "./run-view.ts";

const base = {
  runId: "r1",
  column: "gw@1.0.0",
  routeId: "openai-chat->anthropic-messages",
  client: "openai-chat",
  backend: "anthropic-messages",
  losses: [],
};
const loops: LoopRecord[] = [
  {
    ...base,
    variant: "plain",
    status: "completed",
    losses: ["the reasoning text did not come back to the backend"],
  },
  {
    ...base,
    variant: "parallel",
    status: "broke",
    turn: 2,
    cause: "id-lost",
    reason: 'the backend issued call ids ["a","b"]; the results that reached it answer ["b","a"]',
  },
  {
    ...base,
    variant: "error-result",
    status: "not-run",
    reason: "budget: the sweep's time ran out",
  },
];

it("counts completed of run per route, never a not-run loop as run, and links each break to its bytes", () => {
  const summary = summarizeLoops("r1", loops);
  expect(summary).toMatchObject({ run: 2, completed: 1, notRun: 1 });
  const text = renderLoopsSection(summary).join("\n");
  expect(text).toContain("## Agent loops");
  expect(text).toContain("**1 of 2 loops completed**; 1 not run");
  expect(text).toContain(
    "| gw@1.0.0 | openai-chat->anthropic-messages | **1/2** (1 not run: budget: the sweep's time ran out) | parallel: turn 2, id-lost | the reasoning text did not come back to the backend (plain) |",
  );
  const appendix = renderLoopBreaksAppendix(summary).join("\n");
  expect(appendix).toContain("## G. Every agent loop break");
  expect(appendix).toContain("**broke at turn 2, id-lost**. the backend issued call ids");
  expect(appendix).toContain(
    "([bytes](runs/r1/gw@1.0.0/loops/openai-chat-_anthropic-messages--parallel.json))",
  );
  expect(text).not.toContain("**broke at turn 2");
});

it("names the routes where every loop completed and nothing was lost once per gateway, not as rows", () => {
  const cleanLoops: LoopRecord[] = ["plain", "parallel"].flatMap((variant) =>
    ["a->a", "b->b"].map((routeId) => ({
      ...base,
      routeId,
      variant,
      status: "completed" as const,
    })),
  );
  const summary = summarizeLoops("r1", [...loops, ...cleanLoops]);
  const text = renderLoopsSection(summary).join("\n");
  expect(text).toContain("- gw@1.0.0: 2 route(s), 4 loops: a->a, b->b");
  expect(text).not.toContain("| gw@1.0.0 | a->a |");
  expect(text).toContain("| gw@1.0.0 | openai-chat->anthropic-messages |");
  expect(renderLoopBreaksAppendix(summarizeLoops("r1", cleanLoops))).toEqual([]);
});

it("a loss found in several variants of a route reads once, with the variants", () => {
  expect(
    groupedLosses([
      "plain: the reasoning text did not come back to the backend",
      "error-result: result 1 lost its is_error flag",
      "error-result: the reasoning text did not come back to the backend",
      "thinking: the reasoning text did not come back to the backend",
    ]),
  ).toBe(
    "the reasoning text did not come back to the backend (plain, error-result, thinking); result 1 lost its is_error flag (error-result)",
  );
  expect(groupedLosses([])).toBe("");
});

it("renders nothing for a run without loops", () => {
  expect(renderLoopsSection(summarizeLoops("r1", []))).toEqual([]);
});

it("fails a broken loop in JUnit, skips one not run, passes a completed one", () => {
  const view = {
    run: { id: "r1" },
    gatewayRuns: [],
    cells: [],
    probes: new Map(),
    findings: [],
    loops,
  } as unknown as RunView;
  const junit = renderJunit(view);
  expect(junit).toMatchObject({ tests: 3, failures: 1, skipped: 1 });
  expect(junit.xml).toContain('<testsuite name="agent loops gw@1.0.0" tests="3" failures="1"');
  expect(junit.xml).toContain('<failure type="id-lost" message="broke at turn 2: id-lost">');
});
