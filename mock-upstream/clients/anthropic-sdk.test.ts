/**
 * The `@anthropic-ai/sdk` client against the mock: `messages.create` and the stream helper
 * `messages.stream().finalMessage()`, through every case (cases.ts).
 */
import Anthropic, { APIError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import type { MockHandle } from "../index.ts";
import { prompt, type Seen, useMock } from "./cases.ts";
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
