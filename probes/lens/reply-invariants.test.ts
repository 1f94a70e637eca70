/**
 * What the client's reply shows alone (issue 20 §3): each invariant passes on a good reply and
 * fires on a broken one, from a one-sided trace (client request and response, nothing else).
 */
import { describe, expect, it } from "vitest";
import type { ClientDialect } from "../../dialects/dialect.ts";
import { parseExchange } from "../exchange.ts";
import type { Verdict } from "../verdict.ts";
import { judgeExchange } from "./judge-exchange.ts";

const PATHS: Record<ClientDialect, string> = {
  "anthropic-messages": "/v1/messages",
  "openai-chat": "/v1/chat/completions",
  "openai-responses": "/v1/responses",
};

const REQUESTS: Record<ClientDialect, Record<string, unknown>> = {
  "anthropic-messages": {
    model: "m",
    max_tokens: 64,
    messages: [{ role: "user", content: "Weather in Paris?" }],
  },
  "openai-chat": { model: "m", messages: [{ role: "user", content: "Weather in Paris?" }] },
  "openai-responses": { model: "m", input: "Weather in Paris?" },
};

/** A one-sided trace: the client's request and what it got, no forwarded or upstream side. */
function oneSided(
  client: ClientDialect,
  body: unknown,
  options: { status?: number; stream?: boolean } = {},
): Verdict[] {
  const stream = options.stream ?? false;
  return judgeExchange(
    parseExchange({
      route: { client, backend: "openai-chat" },
      mode: stream ? "stream" : "non-stream",
      clientRequest: { path: PATHS[client], body: { ...REQUESTS[client], stream } },
      clientResponse: {
        status: options.status ?? 200,
        body: typeof body === "string" ? body : JSON.stringify(body),
      },
    }),
  );
}

function of(verdicts: Verdict[], subject: string): Verdict | undefined {
  return verdicts.find((v) => v.subject === subject);
}

const anthropic = (content: unknown[], stop: string | null) => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "m",
  content,
  stop_reason: stop,
  usage: { input_tokens: 5, output_tokens: 5 },
});
const toolUse = { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } };

const chat = (message: Record<string, unknown>, finish: string | null) => ({
  id: "c1",
  object: "chat.completion",
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: finish }],
});
const call = (args: string) => ({
  id: "call_1",
  type: "function",
  function: { name: "get_weather", arguments: args },
});

function sse(events: unknown[]): string {
  return events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
}

describe("a reply holding a tool call ends with the tool stop reason", () => {
  it("passes on Anthropic tool_use and fires on end_turn", () => {
    const good = oneSided("anthropic-messages", anthropic([toolUse], "tool_use"));
    expect(of(good, "invariant.tool-stop")).toMatchObject({ verdict: "preserved" });
    const bad = oneSided("anthropic-messages", anthropic([toolUse], "end_turn"));
    expect(of(bad, "invariant.tool-stop")).toMatchObject({
      verdict: "mangled",
      cause: "no-tool-stop",
      reason: 'invariant.tool-stop: 1 tool call(s) → stop "end_turn"',
    });
  });

  it("fires on a Chat reply with tool_calls and no finish_reason; a length stop ends as it must", () => {
    const none = oneSided("openai-chat", chat({ content: null, tool_calls: [call("{}")] }, null));
    expect(of(none, "invariant.tool-stop")).toMatchObject({ verdict: "dropped" });
    const cut = oneSided(
      "openai-chat",
      chat({ content: null, tool_calls: [call("{}")] }, "length"),
    );
    expect(of(cut, "invariant.tool-stop")?.verdict).toBe("preserved");
  });

  it("holds for a Responses reply, whose function_call item is its tool turn", () => {
    const verdicts = oneSided("openai-responses", {
      id: "resp_1",
      object: "response",
      status: "completed",
      model: "m",
      output: [
        {
          type: "function_call",
          id: "fc_1",
          call_id: "call_1",
          name: "get_weather",
          arguments: "{}",
        },
      ],
    });
    expect(of(verdicts, "invariant.tool-stop")?.verdict).toBe("preserved");
  });

  it("gives no verdict where the reply has no tool call or is an error", () => {
    const text = oneSided(
      "anthropic-messages",
      anthropic([{ type: "text", text: "hi" }], "end_turn"),
    );
    expect(of(text, "invariant.tool-stop")).toBeUndefined();
    const error = oneSided(
      "anthropic-messages",
      { type: "error", error: { type: "api_error", message: "boom" } },
      { status: 500 },
    );
    expect(error.filter((v) => v.subject.startsWith("invariant."))).toEqual([]);
  });
});

describe("streamed tool arguments assemble to a JSON object per call", () => {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: "c1",
    object: "chat.completion.chunk",
    model: "m",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const stream = (fragments: string[]) =>
    `${sse([
      chunk({
        role: "assistant",
        tool_calls: [{ index: 0, ...call(""), function: { name: "get_weather", arguments: "" } }],
      }),
      ...fragments.map((f) => chunk({ tool_calls: [{ index: 0, function: { arguments: f } }] })),
      chunk({}, "tool_calls"),
    ])}data: [DONE]\n\n`;

  it("passes when the fragments make an object and fires when they do not", () => {
    const good = oneSided("openai-chat", stream(['{"city":', '"Paris"}']), { stream: true });
    expect(of(good, "invariant.tool-arguments")?.verdict).toBe("preserved");
    expect(of(good, "invariant.one-lifecycle")?.verdict).toBe("preserved");
    const bad = oneSided("openai-chat", stream(['{"city":', '"Par']), { stream: true });
    expect(of(bad, "invariant.tool-arguments")).toMatchObject({
      verdict: "mangled",
      cause: "invalid-arguments",
    });
  });

  it("fires on non-streamed arguments that are not an object", () => {
    const verdicts = oneSided(
      "openai-chat",
      chat({ content: null, tool_calls: [call('["Paris"]')] }, "tool_calls"),
    );
    expect(of(verdicts, "invariant.tool-arguments")?.verdict).toBe("mangled");
  });
});

describe("tool-call ids in the form the client's dialect documents", () => {
  it("fires on an Anthropic tool_use id outside ^[a-zA-Z0-9_-]+$; Chat documents no form", () => {
    const good = oneSided("anthropic-messages", anthropic([toolUse], "tool_use"));
    expect(of(good, "invariant.tool-call-id")?.verdict).toBe("preserved");
    const kimi = { ...toolUse, id: "functions.get_weather:0" };
    const bad = oneSided("anthropic-messages", anthropic([kimi], "tool_use"));
    expect(of(bad, "invariant.tool-call-id")).toMatchObject({
      verdict: "mangled",
      cause: "id-out-of-form",
    });
    const chatReply = chat({ content: null, tool_calls: [call("{}")] }, "tool_calls");
    const chatKimi = JSON.parse(JSON.stringify(chatReply).replace("call_1", "functions.f:0"));
    expect(of(oneSided("openai-chat", chatKimi), "invariant.tool-call-id")).toBeUndefined();
  });
});

describe("no empty text block beside a reply's content", () => {
  it("fires on an Anthropic empty text block beside a tool call; one empty answer is no answer", () => {
    const beside = oneSided(
      "anthropic-messages",
      anthropic([{ type: "text", text: "" }, toolUse], "tool_use"),
    );
    expect(of(beside, "invariant.empty-content")).toMatchObject({
      verdict: "invented",
      cause: "empty-text",
    });
    const alone = oneSided(
      "anthropic-messages",
      anthropic([{ type: "text", text: "" }], "end_turn"),
    );
    expect(of(alone, "invariant.empty-content")?.verdict).toBe("preserved");
    const good = oneSided("anthropic-messages", anthropic([toolUse], "tool_use"));
    expect(of(good, "invariant.empty-content")?.verdict).toBe("preserved");
  });

  it("sees what the readers read as nothing, and no more (reply.emptied)", () => {
    // Chat `content: ""` beside a call is an empty text; OpenAI sends null there.
    const chatEmpty = oneSided(
      "openai-chat",
      chat({ content: "", tool_calls: [call("{}")] }, "tool_calls"),
    );
    expect(of(chatEmpty, "invariant.empty-content")).toMatchObject({
      verdict: "invented",
      cause: "empty-text",
    });
    const chatNull = oneSided(
      "openai-chat",
      chat({ content: null, tool_calls: [call("{}")] }, "tool_calls"),
    );
    expect(of(chatNull, "invariant.empty-content")?.verdict).toBe("preserved");
    // A Chat stream's opening `content: ""` is no block: OpenAI opens every stream with one.
    const opening = sse([
      {
        id: "c1",
        object: "chat.completion.chunk",
        model: "m",
        choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
      },
      {
        id: "c1",
        object: "chat.completion.chunk",
        model: "m",
        choices: [
          { index: 0, delta: { tool_calls: [{ index: 0, ...call("{}") }] }, finish_reason: null },
        ],
      },
      {
        id: "c1",
        object: "chat.completion.chunk",
        model: "m",
        choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }],
      },
    ]);
    const streamed = oneSided("openai-chat", `${opening}data: [DONE]\n\n`, { stream: true });
    expect(of(streamed, "invariant.empty-content")?.verdict).toBe("preserved");
    // A Responses reasoning item with an empty summary is what reasoning models send.
    const responses = (output: unknown[]) => ({
      id: "resp_1",
      object: "response",
      status: "completed",
      model: "m",
      output: [
        ...output,
        { type: "function_call", id: "fc_1", call_id: "call_1", name: "f", arguments: "{}" },
      ],
    });
    const reasoning = oneSided(
      "openai-responses",
      responses([{ type: "reasoning", id: "rs_1", summary: [] }]),
    );
    expect(of(reasoning, "invariant.empty-content")?.verdict).toBe("preserved");
    const phantom = oneSided(
      "openai-responses",
      responses([{ type: "message", id: "msg_1", role: "assistant", content: [] }]),
    );
    expect(of(phantom, "invariant.empty-content")).toMatchObject({
      verdict: "invented",
      cause: "phantom-message",
    });
    expect(of(phantom, "invariant.empty-content")?.reason).toContain("output[0]");
  });

  it("sees a phantom message item in a Responses stream, and an empty text no delta carried", () => {
    const response = { id: "resp_1", object: "response", model: "m" };
    const fc = { type: "function_call", id: "fc_1", call_id: "call_1", name: "f", arguments: "{}" };
    const stream = (message: Record<string, unknown>) =>
      sse([
        { type: "response.created", response: { ...response, status: "in_progress" } },
        { type: "response.output_item.added", output_index: 0, item: { ...message, content: [] } },
        { type: "response.output_item.done", output_index: 0, item: message },
        { type: "response.output_item.added", output_index: 1, item: fc },
        { type: "response.output_item.done", output_index: 1, item: fc },
        { type: "response.completed", response: { ...response, status: "completed" } },
      ]);
    const item = { type: "message", id: "msg_1", role: "assistant", status: "completed" };
    const phantom = oneSided("openai-responses", stream({ ...item, content: [] }), {
      stream: true,
    });
    expect(of(phantom, "invariant.empty-content")).toMatchObject({
      verdict: "invented",
      cause: "phantom-message",
    });
    const emptyText = { ...item, content: [{ type: "output_text", text: "", annotations: [] }] };
    const empty = oneSided("openai-responses", stream(emptyText), { stream: true });
    expect(of(empty, "invariant.empty-content")).toMatchObject({
      verdict: "invented",
      cause: "empty-text",
    });
  });
});

describe("one lifecycle per stream", () => {
  it("fires on events after the terminal event", () => {
    const events = [
      { type: "message_start", message: anthropic([], null) },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hi" } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
      { type: "message_stop" },
    ];
    const good = oneSided("anthropic-messages", sse(events), { stream: true });
    expect(of(good, "invariant.one-lifecycle")?.verdict).toBe("preserved");
    const twice = oneSided("anthropic-messages", sse([...events, ...events]), { stream: true });
    expect(of(twice, "invariant.one-lifecycle")).toMatchObject({
      verdict: "invented",
      cause: "after-terminal",
    });
  });
});

describe("each content block's lifecycle", () => {
  const head = [
    { type: "message_start", message: anthropic([], null) },
    { type: "content_block_start", index: 0, content_block: { ...toolUse, input: {} } },
    {
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: '{"city":"Paris"}' },
    },
  ];
  const stop = { type: "content_block_stop", index: 0 };
  const tail = [
    { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 1 } },
    { type: "message_stop" },
  ];
  const judge = (events: unknown[]) =>
    of(oneSided("anthropic-messages", sse(events), { stream: true }), "invariant.block-lifecycle");

  it("passes a block started once, filled, then stopped", () => {
    expect(judge([...head, stop, ...tail])?.verdict).toBe("preserved");
  });

  it("calls a delta after the block's stop invented, and judges the arguments as of the stop", () => {
    const late = {
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: ',"unit":"C"}' },
    };
    const verdicts = oneSided("anthropic-messages", sse([...head, stop, late, ...tail]), {
      stream: true,
    });
    expect(of(verdicts, "invariant.block-lifecycle")).toMatchObject({
      verdict: "invented",
      cause: "after-block-stop",
    });
    // Read as of the stop, the arguments are the complete object, not '{"city":"Paris"},"unit"...'.
    expect(of(verdicts, "invariant.tool-arguments")?.verdict).toBe("preserved");
  });

  it("calls a block started twice, or never stopped, mangled", () => {
    expect(judge([...head, head[1], stop, ...tail])).toMatchObject({
      verdict: "mangled",
      cause: "block-lifecycle",
    });
    expect(judge([...head, ...tail])).toMatchObject({
      verdict: "mangled",
      cause: "block-lifecycle",
    });
  });

  it("gives no verdict where the dialect's blocks have no events of their own", () => {
    const chunk = { id: "c", object: "chat.completion.chunk", model: "m" };
    const chat = [
      { ...chunk, choices: [{ index: 0, delta: { content: "hi" }, finish_reason: "stop" }] },
    ];
    const body = `${chat.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("")}data: [DONE]\n\n`;
    const verdicts = oneSided("openai-chat", body, { stream: true });
    expect(of(verdicts, "invariant.block-lifecycle")).toBeUndefined();
  });
});
