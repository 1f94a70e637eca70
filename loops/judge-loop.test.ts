/**
 * The judge can tell a broken loop from a completed one: a test double stands where a
 * gateway would, between the agent and the mock, and loses one thing each time.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { GatewayRoute } from "../gateways/adapter.ts";
import { direct } from "../gateways/adapters/direct.ts";
import { type MockHandle, startMock } from "../mock-upstream/index.ts";
import { BACKEND_MODEL, ROUTE_API_KEY } from "../sweep/run-sweep.ts";
import { LOOP_VARIANTS, type LoopVariantId } from "./loop-script.ts";
import { type LoopRun, runLoop } from "./run-loop.ts";
import { type Double, startDouble } from "./testing-double.ts";

type Json = Record<string, unknown>;
interface Tamper {
  request?: (body: Json) => Json;
  reply?: (body: Json) => Json;
  /** Answer the echo itself with this status, forwarding nothing. */
  refuseEcho?: number;
  /** Forward to another path on the mock (a gateway that calls another endpoint). */
  path?: (url: string) => string;
  /** Answer the agent's task with this status and no body, whatever the backend said. */
  failTask?: number;
}

let mock: MockHandle;
let tamper: Tamper = {};
let proxy: Double;
let proxyUrl = "";

beforeAll(async () => {
  mock = await startMock({ name: "loops-judge" });
  proxy = await startDouble(async (req, res, bytes) => {
    let body = JSON.parse(bytes.toString("utf8")) as Json;
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
    const path = tamper.path ? tamper.path(req.url ?? "") : (req.url ?? "");
    const upstream = await fetch(mock.url + path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: "Bearer x",
        "x-api-key": "x",
        "anthropic-version": "2023-06-01",
      },
      body: JSON.stringify(body),
    });
    if (tamper.failTask && !isEcho) {
      res.writeHead(tamper.failTask);
      res.end();
      return;
    }
    let reply = (await upstream.json()) as Json;
    if (tamper.reply && upstream.ok) reply = tamper.reply(reply);
    res.writeHead(upstream.status, { "content-type": "application/json" });
    res.end(JSON.stringify(reply));
  });
  proxyUrl = proxy.url;
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

const route = (id: string) => {
  const found = direct.routes({ name: "direct", version: "0" }).find((r) => r.id === id);
  if (!found) throw new Error(`no route ${id}`);
  return found;
};
const variant = (id: LoopVariantId) => LOOP_VARIANTS.find((v) => v.id === id)!;

async function loop(
  routeId: string | GatewayRoute,
  variantId: LoopVariantId,
  with_: Tamper,
): Promise<LoopRun> {
  tamper = with_;
  const run = await runLoop(
    {
      baseUrl: proxyUrl,
      route: typeof routeId === "string" ? route(routeId) : routeId,
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

/** A gateway that strips thinking signatures from what it forwards (and may turn thinking on). */
const stripSignatures =
  (thinking?: Json) =>
  (body: Json): Json => {
    for (const m of body.messages as { content: unknown }[]) {
      if (Array.isArray(m.content)) {
        for (const block of m.content as Json[]) delete block.signature;
      }
    }
    return thinking ? { ...body, thinking } : body;
  };

it("a thinking signature stripped from the echo breaks a Messages backend at turn 2 while thinking is on", async () => {
  const run = await loop("anthropic-messages->anthropic-messages", "plain", {
    request: stripSignatures({ type: "enabled", budget_tokens: 1024 }),
  });
  expect(run.outcome).toMatchObject({ status: "broke", turn: 2, cause: "signature-lost" });
});

it("the thinking variant: the agent turns thinking on, so a stripped signature breaks at turn 2", async () => {
  const run = await loop("anthropic-messages->anthropic-messages", "thinking", {
    request: stripSignatures(),
  });
  expect(run.outcome).toMatchObject({ status: "broke", turn: 2, cause: "signature-lost" });
});

it("the thinking variant through a gateway that drops the thinking setting: losses, named", async () => {
  const run = await loop("anthropic-messages->anthropic-messages", "thinking", {
    request: (body) => {
      const { thinking: _dropped, ...rest } = stripSignatures()(body);
      return rest;
    },
  });
  expect(run.outcome).toEqual({
    status: "completed",
    losses: [
      "the thinking block's signature did not come back to the backend (the request did not enable thinking, and Anthropic asks for the blocks back only while it is on)",
      "the agent asked for reasoning; its echo reached the backend with no reasoning setting",
    ],
  });
});

it("a thinking signature stripped from an echo that does not enable thinking is a loss, not a break", async () => {
  // Anthropic asks for the thinking blocks back only while thinking is enabled.
  const run = await loop("anthropic-messages->anthropic-messages", "plain", {
    request: stripSignatures(),
  });
  expect(run.outcome).toEqual({
    status: "completed",
    losses: [
      "the thinking block's signature did not come back to the backend (the request did not enable thinking, and Anthropic asks for the blocks back only while it is on)",
    ],
  });
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

it("calls lost at turn 1 say what the bytes show: the task forwarded without its tools, the calls dropped from the reply", async () => {
  const run = await loop("openai-chat->openai-chat", "plain", {
    request: (body) => {
      delete body.tools;
      return body;
    },
    reply: (body) => {
      const message = chatChoice(body);
      delete message.tool_calls;
      return body;
    },
  });
  expect(run.outcome).toMatchObject({ status: "broke", turn: 1, cause: "tool-call-mangled" });
  if (run.outcome.status === "broke") {
    expect(run.outcome.reason).toContain("the agent got []");
    expect(run.outcome.reason).toContain("the gateway forwarded the task without its tools");
    expect(run.outcome.reason).toContain("the backend's reply carried 1 call(s)");
    expect(run.outcome.reason).toContain('(object "chat.completion")');
  }
});

it("a Responses task passed untranslated to a Chat backend, and its Chat reply passed back, is named so", async () => {
  const responses = route("openai-responses->openai-responses");
  const untranslated: GatewayRoute = {
    ...responses,
    id: "openai-responses->openai-chat",
    backend: "openai-chat",
  };
  const run = await loop(untranslated, "plain", {
    path: (url) => url.replace("/responses", "/chat/completions"),
  });
  expect(run.outcome).toMatchObject({ status: "broke", turn: 1, cause: "tool-call-mangled" });
  if (run.outcome.status === "broke") {
    expect(run.outcome.reason).toContain(
      "with no openai-chat messages: the gateway forwarded it untranslated (top-level keys model, input, tools)",
    );
    expect(run.outcome.reason).toContain("the backend's reply carried 1 call(s)");
    expect(run.outcome.reason).toContain(
      "the gateway answered the agent 200 with top-level keys id, object, created, model, choices",
    );
  }
});

it("an echo whose calls and results reach the backend as plain text breaks at turn 2: result-lost", async () => {
  const run = await loop("openai-chat->openai-chat", "plain", {
    request: (body) => {
      const messages = body.messages as Json[];
      body.messages = messages.map((m) =>
        m.role === "tool"
          ? { role: "user", content: JSON.stringify(m.content) }
          : m.role === "assistant"
            ? { role: "assistant", content: JSON.stringify(m.tool_calls) }
            : m,
      );
      return body;
    },
  });
  expect(run.outcome).toMatchObject({ status: "broke", turn: 2, cause: "result-lost" });
  if (run.outcome.status === "broke") {
    expect(run.outcome.reason).toContain('its messages are ["user","assistant","user"]');
  }
});

it("a gateway that fails on the backend's 200 breaks with its own error, not the SDK's", async () => {
  const run = await loop("openai-chat->openai-chat", "plain", { failTask: 500 });
  expect(run.outcome).toMatchObject({ status: "broke", turn: 1, cause: "gateway-error" });
  if (run.outcome.status === "broke") {
    expect(run.outcome.reason).toContain(
      "the backend answered 200 to the task; the gateway answered the agent 500",
    );
  }
});
