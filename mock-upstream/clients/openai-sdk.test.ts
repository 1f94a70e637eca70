/**
 * The `openai` SDK against the mock: Chat Completions and Responses, `create` and the stream
 * helpers (`chat.completions.stream().finalChatCompletion()`,
 * `responses.stream().finalResponse()`), through every case (cases.ts).
 */
import OpenAI, { APIError } from "openai";
import { describe, expect, it } from "vitest";
import { type MockHandle, newNonce } from "../index.ts";
import { CASES, prompt, type Seen, type SeenError, stageCase, useMock } from "./cases.ts";
import { clientSuite } from "./suite.ts";

const tools = [
  { name: "get_weather", properties: { city: { type: "string" }, unit: { type: "string" } } },
  { name: "get_time", properties: { zone: { type: "string" } } },
];

function client(mock: MockHandle): OpenAI {
  return new OpenAI({
    baseURL: `${mock.url}/v1`,
    apiKey: "sk-test-independent-client-000000",
    maxRetries: 0,
  });
}

function openAiError(thrown: unknown): SeenError {
  if (!(thrown instanceof APIError)) throw thrown;
  return {
    status: thrown.status,
    message: thrown.message,
    retryAfter: thrown.headers?.get("retry-after") ?? null,
  };
}

function argsOf(text: string): unknown {
  return JSON.parse(text);
}

clientSuite("openai SDK, Chat Completions", {
  finish: { stop: "stop", length: "length", tool_calls: "tool_calls" },
  // Chat has no reasoning in OpenAI's own API (reasoning_content is DeepSeek's).
  undefinedInDialect: ["reasoning"],
  async call(mock, nonce, mode): Promise<Seen> {
    const params = {
      model: "gpt-4o-mini",
      messages: [{ role: "user" as const, content: prompt(nonce) }],
      tools: tools.map((t) => ({
        type: "function" as const,
        function: { name: t.name, parameters: { type: "object", properties: t.properties } },
      })),
    };
    const completion =
      mode === "stream"
        ? await client(mock)
            .chat.completions.stream({ ...params, stream_options: { include_usage: true } })
            .finalChatCompletion()
        : await client(mock).chat.completions.create(params);
    const choice = completion.choices[0];
    return {
      text: choice?.message.content ?? "",
      toolCalls: (choice?.message.tool_calls ?? []).map((call) => {
        if (call.type !== "function") throw new Error(`unexpected tool call type ${call.type}`);
        return { name: call.function.name, args: argsOf(call.function.arguments) };
      }),
      usage: completion.usage
        ? { input: completion.usage.prompt_tokens, output: completion.usage.completion_tokens }
        : undefined,
      finish: choice?.finish_reason,
    };
  },
  error: openAiError,
});

clientSuite("openai SDK, Responses", {
  finish: { stop: "completed", length: "incomplete:max_output_tokens", tool_calls: "completed" },
  async call(mock, nonce, mode): Promise<Seen> {
    const params = {
      model: "gpt-4o-mini",
      input: prompt(nonce),
      tools: tools.map((t) => ({
        type: "function" as const,
        name: t.name,
        parameters: { type: "object", properties: t.properties },
        strict: false,
      })),
    };
    const response =
      mode === "stream"
        ? await client(mock).responses.stream(params).finalResponse()
        : await client(mock).responses.create(params);
    const toolCalls = response.output.flatMap((item) =>
      item.type === "function_call" ? [{ name: item.name, args: argsOf(item.arguments) }] : [],
    );
    const reasoning = response.output
      .flatMap((item) => (item.type === "reasoning" ? item.summary.map((s) => s.text) : []))
      .join("");
    const incomplete = response.incomplete_details?.reason;
    return {
      text: response.output_text,
      toolCalls,
      usage: response.usage
        ? { input: response.usage.input_tokens, output: response.usage.output_tokens }
        : undefined,
      finish: incomplete ? `${response.status}:${incomplete}` : response.status,
      ...(reasoning ? { reasoning } : {}),
    };
  },
  error: openAiError,
});

describe("openai SDK, what only this client shows", () => {
  const mock = useMock();

  async function chatStream(m: MockHandle, nonce: string, ask: boolean) {
    const stream = await client(m).chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: prompt(nonce) }],
      stream: true,
      ...(ask ? { stream_options: { include_usage: true } } : {}),
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    return chunks;
  }

  const usageReply = (plan: Record<string, unknown> = {}) => ({
    body: {
      canonical: {
        parts: [{ type: "text", text: "Hi there" }],
        usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
      },
      plan: { textChunkSize: 3, ...plan },
    },
  });

  it("a staged Chat stream that did not ask for usage has no usage chunk: every chunk has a choice", async () => {
    const m = mock();
    const nonce = newNonce();
    m.stage({ match: { nonce }, reply: usageReply() });
    const chunks = await chatStream(m, nonce, false);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      // The loop OpenAI's docs show reads choices[0] of every chunk.
      expect(chunk.choices.length).toBe(1);
      expect(chunk).not.toHaveProperty("usage");
    }
  });

  it("a Chat stream that asks for usage gets it last, and a plan can force it either way", async () => {
    const m = mock();
    const asked = newNonce();
    m.stage({ match: { nonce: asked }, reply: usageReply() });
    const last = (await chatStream(m, asked, true)).at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage?.total_tokens).toBe(5);
    const forced = newNonce();
    m.stage({ match: { nonce: forced }, reply: usageReply({ usage: "final" }) });
    expect((await chatStream(m, forced, false)).at(-1)?.usage?.total_tokens).toBe(5);
    const omitted = newNonce();
    m.stage({ match: { nonce: omitted }, reply: usageReply({ usage: "omit" }) });
    expect((await chatStream(m, omitted, true)).some((c) => c.usage)).toBe(false);
  });

  it("a Responses reply carries the fields OpenAI always returns", async () => {
    const m = mock();
    const response = await client(m).responses.create({ model: "gpt-4.1", input: "hi" });
    for (const key of [
      "tools",
      "tool_choice",
      "parallel_tool_calls",
      "temperature",
      "top_p",
      "instructions",
      "metadata",
      "text",
      "truncation",
      "reasoning",
      "store",
      "service_tier",
      "previous_response_id",
      "max_output_tokens",
      "user",
    ]) {
      expect(response, key).toHaveProperty(key);
    }
    expect(response.model).toBe("gpt-4.1");
  });

  it("models.list reads OpenAI's shape", async () => {
    const page = await client(mock()).models.list();
    expect(page.data.map((m) => m.id)).toContain("gpt-4o-mini");
  });

  it("a staged reply echoes the requested model and carries x-request-id", async () => {
    const m = mock();
    m.stage({
      match: { model: "gpt-4.1-nano" },
      reply: { body: { canonical: { parts: [{ type: "text", text: "x" }] } } },
    });
    const { data, response } = await client(m)
      .chat.completions.create({
        model: "gpt-4.1-nano",
        messages: [{ role: "user", content: "hi" }],
      })
      .withResponse();
    expect(data.model).toBe("gpt-4.1-nano");
    expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
  });
});

describe("openai SDK, every request variant", () => {
  const mock = useMock();
  const usageCase = CASES.find((c) => c.name === "usage");
  if (!usageCase?.expect) throw new Error("no usage case");
  const want = usageCase.expect;

  for (const streamOptions of [undefined, { include_obfuscation: false }]) {
    it(`Responses stream: true${streamOptions ? " with stream_options" : ""}: events end in response.completed with usage`, async () => {
      const m = mock();
      const nonce = stageCase(m, usageCase);
      const stream = await client(m).responses.create({
        model: "gpt-4.1",
        input: prompt(nonce),
        stream: true,
        ...(streamOptions ? { stream_options: streamOptions } : {}),
      });
      const types: string[] = [];
      let text = "";
      let usage: { input: number; output: number } | undefined;
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === "response.output_text.delta") text += event.delta;
        if (event.type === "response.completed" && event.response.usage) {
          const u = event.response.usage;
          usage = { input: u.input_tokens, output: u.output_tokens };
        }
      }
      expect(types[0]).toBe("response.created");
      expect(types.at(-1)).toBe("response.completed");
      expect(text).toBe(want.text);
      expect(usage).toEqual(want.usage);
    });
  }

  it("Chat stream: false and no stream both answer one chat.completion", async () => {
    for (const stream of [false, undefined]) {
      const m = mock();
      const nonce = stageCase(m, usageCase);
      const params = {
        model: "gpt-4o-mini",
        messages: [{ role: "user" as const, content: prompt(nonce) }],
      };
      const completion =
        stream === false
          ? await client(m).chat.completions.create({ ...params, stream })
          : await client(m).chat.completions.create(params);
      expect(completion.object).toBe("chat.completion");
      expect(completion.choices[0]?.message.content).toBe(want.text);
    }
  });

  it("a path OpenAI does not serve (/v1/v1) gets its 404, a staged nonce notwithstanding", async () => {
    const m = mock();
    const nonce = stageCase(m, usageCase);
    const doubled = new OpenAI({
      baseURL: `${m.url}/v1/v1`,
      apiKey: "sk-test-independent-client-000000",
      maxRetries: 0,
    });
    let thrown: unknown;
    try {
      await doubled.chat.completions.create({
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: prompt(nonce) }],
      });
    } catch (error) {
      thrown = error;
    }
    expect(openAiError(thrown)).toMatchObject({
      status: 404,
      message: expect.stringContaining("Invalid URL (POST /v1/v1/chat/completions)"),
    });
    expect(m.records({ nonce }).map((r) => r.reply.staged)).toEqual([false]);
  });
});
