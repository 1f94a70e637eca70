/**
 * Two clients through one gateway: a test double stands where the gateway would, and either
 * forwards each caller's own key or keeps the first key it saw for everyone after (a key
 * that sticks). The pair must tell the two apart.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { redactionTag } from "../dialects/credentials.ts";
import { direct } from "../gateways/adapters/direct.ts";
import { anyLlm } from "../gateways/recipes/any-llm.ts";
import { type MockHandle, startMock } from "../mock-upstream/index.ts";
import { BACKEND_MODEL, ROUTE_API_KEY } from "../sweep/run-sweep.ts";
import { LOOP_VARIANTS } from "./loop-script.ts";
import { runLoop } from "./run-loop.ts";
import { CLIENT_KEYS, runSecondClient, secondClientNotApplicable } from "./second-client.ts";
import { type Double, startDouble } from "./testing-double.ts";

let mock: MockHandle;
let proxy: Double;
let proxyUrl = "";
/** The double keeps the first authorization it saw and sends it for every caller after. */
let sticky = false;
let firstKey: string | undefined;

beforeAll(async () => {
  mock = await startMock({ name: "loops-second-client" });
  proxy = await startDouble(async (req, res, body) => {
    const own = String(req.headers.authorization ?? "");
    firstKey ??= own;
    const upstream = await fetch(mock.url + (req.url ?? ""), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: sticky ? firstKey : own },
      body,
    });
    res.writeHead(upstream.status, { "content-type": "application/json" });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  proxyUrl = proxy.url;
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});
beforeEach(() => {
  firstKey = undefined;
});

const chat = direct
  .routes({ name: "direct", version: "0" })
  .find((r) => r.id === "openai-chat->openai-chat");
if (!chat) throw new Error("direct has no openai-chat->openai-chat route");
const target = (baseUrl: string) => ({
  baseUrl,
  route: chat,
  mock,
  backendModel: BACKEND_MODEL,
  timeoutMs: 20_000,
});

it("a gateway that forwards each caller's own key: B's loop completes, with B's key upstream", async () => {
  sticky = false;
  const pair = await runSecondClient(target(proxyUrl), ROUTE_API_KEY);
  expect(pair.outcome).toEqual({ status: "completed", losses: [] });
  // Not vacuous: B's requests did reach the backend, each with B's key.
  expect(pair.second.forwarded).toHaveLength(2);
  for (const record of pair.second.forwarded) {
    expect(JSON.stringify(record.request.headers)).toContain(redactionTag(CLIENT_KEYS.second));
  }
});

it("a gateway that keeps the first caller's key breaks B's loop at turn 1: credential-stuck", async () => {
  sticky = true;
  const pair = await runSecondClient(target(proxyUrl), ROUTE_API_KEY);
  expect(pair.outcome).toMatchObject({ status: "broke", turn: 1, cause: "credential-stuck" });
  if (pair.outcome.status === "broke") {
    expect(pair.outcome.reason).toContain(`client A's key ${redactionTag(CLIENT_KEYS.first)}`);
    expect(pair.outcome.reason).toContain("authorization header");
    expect(pair.outcome.reason).toContain("2 of B's 2");
  }
  // The evidence keeps keys only as their tags.
  expect(JSON.stringify(pair)).not.toContain(CLIENT_KEYS.first);
  expect(JSON.stringify(pair)).not.toContain(CLIENT_KEYS.second);
});

it("a key another client of the gateway sent before the pair (the sweep's) is found too", async () => {
  sticky = true;
  const plain = LOOP_VARIANTS.find((v) => v.id === "plain");
  if (!plain) throw new Error("no plain variant");
  await runLoop({ ...target(proxyUrl), apiKey: ROUTE_API_KEY }, plain);
  const pair = await runSecondClient(target(proxyUrl), ROUTE_API_KEY);
  expect(pair.outcome).toMatchObject({ status: "broke", turn: 1, cause: "credential-stuck" });
  if (pair.outcome.status === "broke") {
    expect(pair.outcome.reason).toContain(redactionTag(ROUTE_API_KEY));
  }
});

it("the control pair through direct (no gateway) completes", async () => {
  const pair = await runSecondClient(target(mock.url), ROUTE_API_KEY);
  expect(pair.outcome).toEqual({ status: "completed", losses: [] });
});

it("is not applicable where the route sends one fixed key (any-llm), and is on direct", () => {
  const anyLlmRoutes = anyLlm.routes({ name: "any-llm", version: "1.14.0" });
  expect(anyLlmRoutes.length).toBeGreaterThan(0);
  for (const route of anyLlmRoutes) {
    expect(secondClientNotApplicable(route)).toMatch(/one fixed client key/);
  }
  for (const route of direct.routes({ name: "direct", version: "0" })) {
    expect(secondClientNotApplicable(route)).toBeUndefined();
  }
});
