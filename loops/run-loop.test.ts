import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactionTag } from "../dialects/credentials.ts";
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

it("the agent's SDK holds the key the route sends, where the route sends its own (any-llm's)", async () => {
  const messages = direct
    .routes({ name: "direct", version: "0" })
    .find((r) => r.client === "anthropic-messages");
  const plain = LOOP_VARIANTS.find((v) => v.id === "plain");
  if (!messages || !plain) throw new Error("no Messages route or plain variant");
  const fixed = "gw-gatecheck-fixed-route-key-0000000000000000";
  const run = await runLoop(
    {
      baseUrl: mock.url,
      route: { ...messages, headers: (ctx) => messages.headers({ ...ctx, apiKey: fixed }) },
      mock,
      apiKey: ROUTE_API_KEY,
      backendModel: BACKEND_MODEL,
      timeoutMs: 20_000,
    },
    plain,
  );
  expect(run.outcome.status).toBe("completed");
  // Every key header the SDK sent holds the route's key, none the sweep's.
  const sent = JSON.stringify(run.turns.map((t) => t.clientRequest.headers));
  expect(sent).toContain(redactionTag(fixed));
  expect(sent).not.toContain(redactionTag(ROUTE_API_KEY));
});
