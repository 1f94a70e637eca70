/**
 * An enum value under the backend's own key is read case-exactly, and one the backend does not
 * define is `mangled (malformed)`, never `dropped` (issue 20 §2): Gemini's `functionCallingConfig`
 * mode is the proto name (`ANY`), Anthropic's `tool_choice.type` and `thinking.type`, Chat's and
 * Responses' `tool_choice` and `response_format.type` are lower case in their references.
 * docs/lens.md, "A malformed value under the backend's own key".
 */
import { describe, expect, it } from "vitest";
import type { Dialect } from "../../dialects/dialect.ts";
import { parseExchange } from "../exchange.ts";
import { judgeExchange } from "./judge-exchange.ts";

const user = [{ role: "user", content: "Weather in Paris?" }];
const schema = { type: "object", properties: {} };
const chatClient = {
  model: "m",
  messages: user,
  tools: [{ type: "function", function: { name: "get_weather", parameters: schema } }],
  tool_choice: "required",
};

function verdictOf(
  client: { dialect: "openai-chat" | "anthropic-messages"; path: string; body: unknown },
  backend: Dialect,
  path: string,
  body: unknown,
  subject: string,
) {
  const verdicts = judgeExchange(
    parseExchange({
      route: { client: client.dialect, backend },
      mode: "non-stream",
      clientRequest: { path: client.path, body: client.body },
      forwarded: [{ path, body }],
    }),
  );
  const v = verdicts.find((x) => x.subject === subject);
  return v && { verdict: v.verdict, cause: v.cause };
}

const chat = { dialect: "openai-chat" as const, path: "/v1/chat/completions", body: chatClient };
const malformed = { verdict: "mangled", cause: "malformed" };

describe("an enum under the backend's own key in another case", () => {
  it("is malformed on every backend's tool choice", () => {
    const anthropic = {
      model: "m",
      max_tokens: 16,
      messages: user,
      tools: [{ name: "get_weather", input_schema: schema }],
    };
    const responses = {
      model: "m",
      input: "Weather in Paris?",
      tools: [{ type: "function", name: "get_weather", parameters: schema }],
    };
    const gemini = {
      contents: [{ role: "user", parts: [{ text: "Weather in Paris?" }] }],
      tools: [{ functionDeclarations: [{ name: "get_weather", parameters: schema }] }],
    };
    const cases: [Dialect, string, unknown][] = [
      ["anthropic-messages", "/v1/messages", { ...anthropic, tool_choice: { type: "ANY" } }],
      ["openai-chat", "/v1/chat/completions", { ...chatClient, tool_choice: "REQUIRED" }],
      ["openai-responses", "/v1/responses", { ...responses, tool_choice: "Required" }],
      [
        "gemini",
        "/v1beta/models/m:generateContent",
        { ...gemini, toolConfig: { functionCallingConfig: { mode: "any" } } },
      ],
    ];
    for (const [backend, path, body] of cases) {
      expect(verdictOf(chat, backend, path, body, "tool-choice"), backend).toEqual(malformed);
    }
    // The same request in the reference's spelling is carried.
    const exact = { ...gemini, toolConfig: { functionCallingConfig: { mode: "ANY" } } };
    expect(
      verdictOf(chat, "gemini", "/v1beta/models/m:generateContent", exact, "tool-choice"),
    ).toEqual({ verdict: "preserved", cause: undefined });
  });

  it("is malformed for other enums: a response format type, a thinking type", () => {
    const jsonMode = { model: "m", messages: user, response_format: { type: "json_object" } };
    const upper = { ...jsonMode, response_format: { type: "JSON_OBJECT" } };
    const client = { ...chat, body: jsonMode };
    expect(
      verdictOf(client, "openai-chat", "/v1/chat/completions", upper, "response-format"),
    ).toEqual(malformed);
    const thinking = { model: "m", max_tokens: 2048, messages: user };
    const anthropic = {
      dialect: "anthropic-messages" as const,
      path: "/v1/messages",
      body: { ...thinking, thinking: { type: "enabled", budget_tokens: 1024 } },
    };
    const sent = { ...thinking, thinking: { type: "ENABLED", budget_tokens: 1024 } };
    expect(
      verdictOf(anthropic, "anthropic-messages", "/v1/messages", sent, "reasoning.mode"),
    ).toEqual(malformed);
  });
});
