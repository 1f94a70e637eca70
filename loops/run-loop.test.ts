import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { direct } from "../gateways/adapters/direct.ts";
import { type MockHandle, startMock } from "../mock-upstream/index.ts";
import { BACKEND_MODEL, ROUTE_API_KEY } from "../sweep/run-sweep.ts";
import { LOOP_VARIANTS } from "./loop-script.ts";
import { runLoop } from "./run-loop.ts";

let mock: MockHandle;
beforeAll(async () => {
  mock = await startMock({ name: "loops-direct" });
});
afterAll(async () => {
  await mock.close();
});

describe("the control loop through direct (no gateway)", () => {
  const routes = direct.routes({ name: "direct", version: "0" });
  for (const route of routes) {
    for (const variant of LOOP_VARIANTS) {
      it(`${route.id} ${variant.id} completes with nothing lost`, async () => {
        const run = await runLoop(
          {
            baseUrl: mock.url,
            route,
            mock,
            apiKey: ROUTE_API_KEY,
            backendModel: BACKEND_MODEL,
            timeoutMs: 20_000,
          },
          variant,
        );
        expect(run.outcome).toEqual({ status: "completed", losses: [] });
        expect(run.turns).toHaveLength(2);
        expect(run.forwarded).toHaveLength(2);
        // The key the agent sent is kept only as its redaction tag.
        expect(JSON.stringify(run)).not.toContain(ROUTE_API_KEY);
      });
    }
  }
});
