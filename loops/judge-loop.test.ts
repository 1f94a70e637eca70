/**
 * The judge can tell a broken loop from a completed one: a test double stands where a
 * gateway would, between the agent and the mock, and loses one thing each time.
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { direct } from "../gateways/adapters/direct.ts";
import { type MockHandle, startMock } from "../mock-upstream/index.ts";
import { BACKEND_MODEL, ROUTE_API_KEY } from "../sweep/run-sweep.ts";
import { LOOP_VARIANTS, type LoopVariantId } from "./loop-script.ts";
import { type LoopRun, runLoop } from "./run-loop.ts";

type Json = Record<string, unknown>;
interface Tamper {
  request?: (body: Json) => Json;
  reply?: (body: Json) => Json;
  /** Answer the echo itself with this status, forwarding nothing. */
  refuseEcho?: number;
}

let mock: MockHandle;
let tamper: Tamper = {};
let proxy: Server;
let proxyUrl = "";

beforeAll(async () => {
  mock = await startMock({ name: "loops-judge" });
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Json;
    const isEcho =
      JSON.stringify(body).includes('lookup_weather",') &&
      /tool_call_id|tool_result|function_call_output/.test(JSON.stringify(body));
    if (isEcho && tamper.refuseEcho) {
      res.writeHead(tamper.refuseEcho, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ error: { message: "gateway says no", type: "invalid_request_error" } }),
      );
      return;
    }
    if (tamper.request) body = tamper.request(body);
    const upstream = await fetch(mock.url + (req.url ?? ""), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: "Bearer x",
        "x-api-key": "x",
        "anthropic-version": "2023-06-01",
      },
      body: JSON.stringify(body),
    });
    let reply = (await upstream.json()) as Json;
    if (tamper.reply && upstream.ok) reply = tamper.reply(reply);
    res.writeHead(upstream.status, { "content-type": "application/json" });
    res.end(JSON.stringify(reply));
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const address = proxy.address();
  proxyUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await mock.close();
});

const route = (id: string) => {
  const found = direct.routes({ name: "direct", version: "0" }).find((r) => r.id === id);
  if (!found) throw new Error(`no route ${id}`);
  return found;
};
const variant = (id: LoopVariantId) => LOOP_VARIANTS.find((v) => v.id === id)!;

async function loop(routeId: string, variantId: LoopVariantId, with_: Tamper): Promise<LoopRun> {
  tamper = with_;
  const run = await runLoop(
    {
      baseUrl: proxyUrl,
      route: route(routeId),
      mock,
      apiKey: ROUTE_API_KEY,
      backendModel: BACKEND_MODEL,
      timeoutMs: 20_000,
    },
    variant(variantId),
  );
  tamper = {};
  return run;
}

const chatChoice = (body: Json) =>
  (body.choices as { message: { tool_calls?: { id: string }[]; content: unknown } }[])[0]!.message;

it("an untouched pass-through completes (the double itself loses nothing)", async () => {
  const run = await loop("openai-chat->openai-chat", "parallel", {});
  expect(run.outcome).toEqual({ status: "completed", losses: [] });
});

it("a tool-call id rewritten for the client and not restored breaks at turn 2: id-lost", async () => {
  const run = await loop("openai-chat->openai-chat", "plain", {
    reply: (body) => {
      for (const call of chatChoice(body).tool_calls ?? []) call.id = "call_rewritten";
      return body;
    },
  });
  expect(run.outcome).toMatchObject({ status: "broke", turn: 2, cause: "id-lost" });
  if (run.outcome.status === "broke") expect(run.outcome.reason).toContain("call_rewritten");
});

it("a rewritten id that the gateway restores upstream completes", async () => {
  let original = "";
  const run = await loop("openai-chat->openai-chat", "plain", {
    reply: (body) => {
      for (const call of chatChoice(body).tool_calls ?? []) {
        original = call.id;
        call.id = "call_short";
      }
      return body;
    },
    request: (body) =>
      JSON.parse(JSON.stringify(body).replaceAll("call_short", original.replaceAll('"', '\\"'))),
  });
  expect(run.outcome.status).toBe("completed");
});

it("parallel results sent back in the wrong order break at turn 2", async () => {
  const run = await loop("openai-chat->openai-chat", "parallel", {
    request: (body) => {
      const messages = body.messages as unknown[];
      if (messages.length === 4) [messages[2], messages[3]] = [messages[3], messages[2]];
      return body;
    },
  });
  expect(run.outcome).toMatchObject({ status: "broke", turn: 2, cause: "id-lost" });
});

it("a thinking signature stripped from the echo breaks a Messages backend at turn 2", async () => {
  const run = await loop("anthropic-messages->anthropic-messages", "plain", {
    request: (body) => {
      for (const m of body.messages as { content: unknown }[]) {
        if (Array.isArray(m.content)) {
          for (const block of m.content as Json[]) delete block.signature;
        }
      }
      return body;
    },
  });
  expect(run.outcome).toMatchObject({ status: "broke", turn: 2, cause: "signature-lost" });
});

it("reasoning text not echoed on a Chat backend is a loss, not a break", async () => {
  const run = await loop("openai-chat->openai-chat", "plain", {
    request: (body) => {
      for (const m of body.messages as Json[]) delete m.reasoning_content;
      return body;
    },
  });
  expect(run.outcome).toEqual({
    status: "completed",
    losses: ["the reasoning text did not come back to the backend"],
  });
});

it("an echo the gateway refuses breaks at turn 2 with the gateway's error, nothing forwarded", async () => {
  const run = await loop("openai-responses->openai-responses", "plain", { refuseEcho: 400 });
  expect(run.outcome).toMatchObject({ status: "broke", turn: 2, cause: "gateway-error" });
  expect(run.forwarded).toHaveLength(1);
});

it("a final answer that does not reach the agent intact breaks at turn 3", async () => {
  const run = await loop("openai-chat->openai-chat", "plain", {
    reply: (body) => {
      const message = chatChoice(body);
      if (message.content) message.content = "";
      return body;
    },
  });
  expect(run.outcome).toMatchObject({ status: "broke", turn: 3, cause: "final-text-mismatch" });
});

it("a tool call whose arguments the gateway changed breaks at turn 1", async () => {
  const run = await loop("anthropic-messages->anthropic-messages", "plain", {
    reply: (body) => {
      for (const block of (body.content as Json[]) ?? []) {
        if (block.type === "tool_use") block.input = {};
      }
      return body;
    },
  });
  expect(run.outcome).toMatchObject({ status: "broke", turn: 1, cause: "tool-call-mangled" });
});
