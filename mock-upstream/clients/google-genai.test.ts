/**
 * `@google/genai` against the mock: `models.generateContent` and
 * `models.generateContentStream` through every case (cases.ts), and `models.list` on `v1`
 * and `v1beta`.
 */
import { ApiError, type GenerateContentResponse, GoogleGenAI } from "@google/genai";
import { describe, expect, it } from "vitest";
import type { MockHandle } from "../index.ts";
import { prompt, recordingFetch, type Seen, useMock } from "./cases.ts";
import { clientSuite } from "./suite.ts";

const fetchSeen = recordingFetch();

function client(mock: MockHandle, apiVersion = "v1beta"): GoogleGenAI {
  return new GoogleGenAI({
    apiKey: "AIzaSyIndependentClient-0000000000000",
    httpOptions: { baseUrl: mock.url, apiVersion, fetch: fetchSeen.fetch },
  });
}

const tools = [
  {
    functionDeclarations: [
      {
        name: "get_weather",
        parametersJsonSchema: {
          type: "object",
          properties: { city: { type: "string" }, unit: { type: "string" } },
        },
      },
      {
        name: "get_time",
        parametersJsonSchema: { type: "object", properties: { zone: { type: "string" } } },
      },
    ],
  },
];

/** Every chunk of a stream read as the SDK's users do: texts joined, the last usage and finish. */
function seenOf(responses: GenerateContentResponse[]): Seen {
  const parts = responses.flatMap((r) => r.candidates?.[0]?.content?.parts ?? []);
  const last = responses[responses.length - 1];
  const usage = [...responses].reverse().find((r) => r.usageMetadata)?.usageMetadata;
  return {
    text: parts
      .filter((p) => !p.thought)
      .map((p) => p.text ?? "")
      .join(""),
    toolCalls: parts.flatMap((p) =>
      p.functionCall ? [{ name: p.functionCall.name ?? "", args: p.functionCall.args }] : [],
    ),
    usage: usage
      ? { input: usage.promptTokenCount ?? 0, output: usage.candidatesTokenCount ?? 0 }
      : undefined,
    finish: last?.candidates?.[0]?.finishReason,
    reasoning: parts
      .filter((p) => p.thought)
      .map((p) => p.text ?? "")
      .join(""),
  };
}

clientSuite("@google/genai, Gemini", {
  finish: { stop: "STOP", length: "MAX_TOKENS", tool_calls: "STOP" },
  async call(mock, nonce, mode): Promise<Seen> {
    const params = {
      model: "gemini-2.5-pro",
      contents: prompt(nonce),
      config: { tools },
    };
    if (mode === "non-stream") return seenOf([await client(mock).models.generateContent(params)]);
    const chunks: GenerateContentResponse[] = [];
    for await (const chunk of await client(mock).models.generateContentStream(params)) {
      chunks.push(chunk);
    }
    return seenOf(chunks);
  },
  error(thrown) {
    if (!(thrown instanceof ApiError)) throw thrown;
    return {
      status: thrown.status,
      message: thrown.message,
      retryAfter: fetchSeen.lastHeaders()?.get("retry-after") ?? null,
    };
  },
});

describe("@google/genai, what only this client shows", () => {
  const mock = useMock();

  for (const apiVersion of ["v1beta", "v1"]) {
    it(`models.list on ${apiVersion} finds the Gemini models`, async () => {
      const names: string[] = [];
      for await (const model of await client(mock(), apiVersion).models.list()) {
        names.push(model.name ?? "");
      }
      expect(names).toContain("models/gemini-2.0-flash");
    });

    it(`generateContent on ${apiVersion} answers in Gemini's shape`, async () => {
      const response = await client(mock(), apiVersion).models.generateContent({
        model: "gemini-2.0-flash",
        contents: "hi",
      });
      expect(response.text).toBe("Hello from the gatecheck mock.");
      expect(response.modelVersion).toBe("gemini-2.0-flash");
    });
  }
});
