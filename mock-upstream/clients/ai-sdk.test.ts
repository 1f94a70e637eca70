/**
 * The Vercel AI SDK against the mock: `generateText` and `streamText` with `@ai-sdk/openai`
 * (Chat and Responses), `@ai-sdk/anthropic` and `@ai-sdk/google`, through every case
 * (cases.ts). Its providers validate every reply with strict schemas, so a missing field the
 * provider always sends fails here even where the official SDKs shrug.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, generateText, jsonSchema, type LanguageModel, streamText, tool } from "ai";
import type { MockHandle } from "../index.ts";
import { prompt, type Seen, type SeenError } from "./cases.ts";
import { type ClientAdapter, clientSuite } from "./suite.ts";

const tools = {
  get_weather: tool({
    inputSchema: jsonSchema<{ city: string; unit: string }>({
      type: "object",
      properties: { city: { type: "string" }, unit: { type: "string" } },
    }),
  }),
  get_time: tool({
    inputSchema: jsonSchema<{ zone: string }>({
      type: "object",
      properties: { zone: { type: "string" } },
    }),
  }),
};

interface Outcome {
  text: string;
  reasoningText: string | undefined;
  toolCalls: { toolName: string; input: unknown }[];
  usage: { inputTokens: number | undefined; outputTokens: number | undefined };
  finishReason: string;
}

function seenOf(outcome: Outcome): Seen {
  return {
    text: outcome.text,
    toolCalls: outcome.toolCalls.map((c) => ({ name: c.toolName, args: c.input })),
    usage:
      outcome.usage.inputTokens === undefined && outcome.usage.outputTokens === undefined
        ? undefined
        : { input: outcome.usage.inputTokens ?? -1, output: outcome.usage.outputTokens ?? -1 },
    finish: outcome.finishReason,
    ...(outcome.reasoningText ? { reasoning: outcome.reasoningText } : {}),
  };
}

async function run(model: LanguageModel, nonce: string, stream: boolean): Promise<Seen> {
  const params = { model, prompt: prompt(nonce), tools, maxRetries: 0 };
  if (!stream) return seenOf(await generateText(params));
  const result = streamText(params);
  for await (const part of result.fullStream) {
    if (part.type === "error") throw part.error;
  }
  return seenOf({
    text: await result.text,
    reasoningText: await result.reasoningText,
    toolCalls: await result.toolCalls,
    usage: await result.usage,
    finishReason: await result.finishReason,
  });
}

function aiSdkError(thrown: unknown): SeenError {
  if (!APICallError.isInstance(thrown)) throw thrown;
  return {
    status: thrown.statusCode,
    message: thrown.message,
    retryAfter: thrown.responseHeaders?.["retry-after"] ?? null,
  };
}

const FINISH = { stop: "stop", length: "length", tool_calls: "tool-calls" } as const;

function adapter(
  model: (mock: MockHandle) => LanguageModel,
  extra: Partial<ClientAdapter> = {},
): ClientAdapter {
  return {
    finish: FINISH,
    call: (mock, nonce, mode) => run(model(mock), nonce, mode === "stream"),
    error: aiSdkError,
    ...extra,
  };
}

const openai = (mock: MockHandle) =>
  createOpenAI({ baseURL: `${mock.url}/v1`, apiKey: "sk-test-ai-sdk-00000000000000" });

clientSuite(
  "AI SDK, @ai-sdk/openai Chat",
  adapter((mock) => openai(mock).chat("gpt-4o-mini"), { undefinedInDialect: ["reasoning"] }),
);

clientSuite(
  "AI SDK, @ai-sdk/openai Responses",
  adapter((mock) => openai(mock).responses("gpt-4o-mini")),
);

clientSuite(
  "AI SDK, @ai-sdk/anthropic",
  adapter((mock) =>
    createAnthropic({ baseURL: `${mock.url}/v1`, apiKey: "sk-ant-api03-ai-sdk-000000" })(
      "claude-sonnet-4-20250514",
    ),
  ),
);

clientSuite(
  "AI SDK, @ai-sdk/google",
  adapter((mock) =>
    createGoogleGenerativeAI({
      baseURL: `${mock.url}/v1beta`,
      apiKey: "AIzaSyAiSdkClient-000000000000000000",
    })("gemini-2.5-pro"),
  ),
);
