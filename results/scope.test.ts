import { describe, expect, it } from "vitest";
import type { CellRecord } from "./records.ts";
import { PREFLIGHT_REASON, preflightFailedRoutes, type RunScope } from "./scope.ts";
import { renderScope } from "./scope-section.ts";

function cell(routeId: string, mode: string, verdict: string, reason: string): CellRecord {
  return {
    runId: "r",
    column: "gw@1",
    routeId,
    probeId: `p-${Math.random()}`,
    mode,
    verdict,
    reason,
  } as unknown as CellRecord;
}

const WHY =
  "forwarded to POST /v1/v1/chat/completions, which the deepseek openai-chat backend does not serve";

describe("routes that failed their preflight", () => {
  it("are grouped by column, route and reason with their modes and cells, from the cells' reason", () => {
    const routes = preflightFailedRoutes([
      cell("a@deepseek", "stream", "not-run", `${PREFLIGHT_REASON} (stream): ${WHY}`),
      cell("a@deepseek", "non-stream", "not-run", `${PREFLIGHT_REASON} (non-stream): ${WHY}`),
      cell("a@deepseek", "non-stream", "not-run", `${PREFLIGHT_REASON} (non-stream): ${WHY}`),
      cell("a@deepseek", "non-stream", "mangled", "path: expected /v1/chat/completions"),
      cell("b", "stream", "not-run", "budget: the sweep's time ran out"),
    ]);
    expect(routes).toEqual([
      {
        column: "gw@1",
        route: "a@deepseek",
        modes: ["non-stream", "stream"],
        reason: WHY,
        cells: 3,
      },
    ]);
  });

  it("are listed in the scope with the whole reason, and not again as routes offered but not measured", () => {
    const scope: RunScope = {
      measured: [{ column: "gw@1", cells: 3, routes: 1 }],
      absent: [],
      notMeasured: [
        {
          column: "gw@1",
          verdict: "not-run",
          reason: `${PREFLIGHT_REASON} (non-stream): ${WHY}`,
          cells: [],
          routes: ["a@deepseek"],
          wholeRoutes: ["a@deepseek"],
        },
      ],
      preflightFailed: [
        { column: "gw@1", route: "a@deepseek", modes: ["non-stream"], reason: WHY, cells: 3 },
      ],
      controls: [],
    };
    const text = renderScope(scope).join("\n");
    expect(text).toContain(
      `- **Routes that failed their preflight** (not swept: their cells \`not-run\`, never findings; docs/sweep.md): gw@1 a@deepseek (non-stream; 3 cells): ${WHY}.`,
    );
    expect(text).toContain("- **Routes offered but not measured**: none.");
    expect(renderScope({ ...scope, notMeasured: [], preflightFailed: [] }).join("\n")).toContain(
      "- **Routes that failed their preflight**: none.",
    );
  });
});
