/**
 * The `@anthropic-ai/sdk` client against the mock: `messages.create` and the stream helper
 * `messages.stream().finalMessage()`, through every case (cases.ts).
 */
import Anthropic, { APIError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import type { MockHandle } from "../index.ts";
import { CASES, prompt, type Seen, stageCase, useMock } from "./cases.ts";
import { clientSuite } from "./suite.ts";

function client(mock: MockHandle): Anthropic {
  return new Anthropic({
    baseURL: mock.url,
    apiKey: "sk-ant-api03-independent-client-0000",
    maxRetries: 0,
  });
}

const tools = [
  {
    name: "get_weather",
    input_schema: {
      type: "object" as const,
      properties: { city: { type: "string" }, unit: { type: "string" } },
    },
  },
  {
    name: "get_time",
    input_schema: { type: "object" as const, properties: { zone: { type: "string" } } },
  },
];

clientSuite("@anthropic-ai/sdk, Messages", {
  finish: { stop: "end_turn", length: "max_tokens", tool_calls: "tool_use" },
  async call(mock, nonce, mode): Promise<Seen> {
    const params = {
      model: "claude-sonnet-4-20250514",
      max_tokens: 256,
      messages: [{ role: "user" as const, content: prompt(nonce) }],
      tools,
    };
    const message =
      mode === "stream"
        ? await client(mock).messages.stream(params).finalMessage()
        : await client(mock).messages.create(params);
    const text = message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
    const reasoning = message.content
      .flatMap((b) => (b.type === "thinking" ? [b.thinking] : []))
      .join("");
    return {
      text,
      toolCalls: message.content.flatMap((b) =>
        b.type === "tool_use" ? [{ name: b.name, args: b.input }] : [],
      ),
      usage: message.usage
        ? { input: message.usage.input_tokens, output: message.usage.output_tokens }
        : undefined,
      finish: message.stop_reason ?? undefined,
      ...(reasoning ? { reasoning } : {}),
    };
  },
  error(thrown) {
    if (!(thrown instanceof APIError)) throw thrown;
    return {
      status: thrown.status,
      message: thrown.message,
      retryAfter: thrown.headers?.get("retry-after") ?? null,
    };
  },
});

describe("@anthropic-ai/sdk, what only this client shows", () => {
  const mock = useMock();

  it("models.list reads Anthropic's shape", async () => {
    const page = await client(mock()).models.list();
    expect(page.data.map((m) => m.id)).toContain("claude-sonnet-4-20250514");
  });

  it("a thinking block keeps its signature through the stream helper", async () => {
    const m = mock();
    m.stage({
      match: { model: "claude-opus-4-1" },
      reply: {
        body: {
          canonical: {
            parts: [
              { type: "thinking", text: "hm", signature: "c2ln" },
              { type: "text", text: "ok" },
            ],
          },
        },
      },
    });
    const message = await client(m)
      .messages.stream({
        model: "claude-opus-4-1",
        max_tokens: 64,
        messages: [{ role: "user", content: "hi" }],
      })
      .finalMessage();
    expect(message.content[0]).toEqual({ type: "thinking", thinking: "hm", signature: "c2ln" });
    expect(message.model).toBe("claude-opus-4-1");
  });

  it("a reply carries request-id as Anthropic's does", async () => {
    const { response } = await client(mock())
      .messages.create({
        model: "claude-sonnet-4-20250514",
        max_tokens: 16,
        messages: [{ role: "user", content: "hi" }],
      })
      .withResponse();
    expect(response.headers.get("request-id")).toMatch(/^req_[0-9A-Za-z]{24}$/);
  });
});

describe("@anthropic-ai/sdk, every request variant", () => {
  const mock = useMock();
  const usageCase = CASES.find((c) => c.name === "usage");
  if (!usageCase?.expect) throw new Error("no usage case");
  const want = usageCase.expect;

  for (const stream of [undefined, false] as const) {
    it(`stream ${stream === undefined ? "absent" : "false"}: one JSON message`, async () => {
      const m = mock();
      const nonce = stageCase(m, usageCase);
      const { data, response } = await client(m)
        .messages.create({
          model: "claude-sonnet-4-20250514",
          max_tokens: 64,
          messages: [{ role: "user", content: prompt(nonce) }],
          ...(stream === undefined ? {} : { stream }),
        })
        .withResponse();
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(data.type).toBe("message");
      expect(data.content).toEqual([{ type: "text", text: want.text }]);
      const [record] = m.records({ nonce });
      const sent = JSON.parse(record?.request.body.data ?? "{}") as Record<string, unknown>;
      expect(sent.stream).toBe(stream);
    });
  }

  it("a path Anthropic does not serve gets its 404, a staged nonce notwithstanding", async () => {
    const m = mock();
    const nonce = stageCase(m, usageCase);
    const wrong = new Anthropic({
      baseURL: `${m.url}/v1`,
      apiKey: "sk-ant-api03-independent-client-0000",
      maxRetries: 0,
    });
    let thrown: unknown;
    try {
      await wrong.messages.create({
        model: "claude-sonnet-4-20250514",
        max_tokens: 64,
        messages: [{ role: "user", content: prompt(nonce) }],
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(APIError);
    expect((thrown as APIError).status).toBe(404);
    expect(m.records({ nonce }).map((r) => r.reply.staged)).toEqual([false]);
  });
});
