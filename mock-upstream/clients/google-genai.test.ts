/**
 * `@google/genai` against the mock: `models.generateContent` and
 * `models.generateContentStream` (always `?alt=sse`) through every case (cases.ts),
 * `models.list` on `v1` and `v1beta`; and, read by a raw reader and a real JSON parser into
 * the SDK's own response class, the JSON array `streamGenerateContent` answers without
 * `alt=sse`.
 */
import { ApiError, GenerateContentResponse, GoogleGenAI } from "@google/genai";
import { describe, expect, it } from "vitest";
import { type MockHandle, newNonce } from "../index.ts";
import { CASES, prompt, recordingFetch, type Seen, stageCase, useMock } from "./cases.ts";
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

/** The JSON array `streamGenerateContent` answers without `alt=sse`, read as it arrives. */
async function readJsonArrayStream(
  mock: MockHandle,
  nonce: string,
  query: string,
): Promise<{ text: string; contentType: string | null }> {
  const res = await fetch(
    `${mock.url}/v1beta/models/gemini-2.5-pro:streamGenerateContent${query}`,
    {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-goog-api-key": "AIzaSyIndependentClient-0000000000000",
      },
      body: JSON.stringify({
        contents: [{ role: "user", parts: [{ text: prompt(nonce) }] }],
        tools,
      }),
    },
  );
  expect(res.status).toBe(200);
  const reader = res.body?.getReader();
  if (!reader) throw new Error("no body");
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return { text: text + decoder.decode(), contentType: res.headers.get("content-type") };
}

describe("@google/genai, streamGenerateContent without alt=sse: Gemini's JSON array", () => {
  const mock = useMock();
  for (const c of CASES.filter((k) => k.expect)) {
    it(`${c.name}: every element parses, and the SDK's response class reads them`, async () => {
      const m = mock();
      const nonce = newNonce();
      m.stage({ match: { nonce }, times: 2, reply: c.reply });
      for (const query of ["", "?alt=json"]) {
        const { text, contentType } = await readJsonArrayStream(m, nonce, query);
        expect(contentType).toMatch(/^application\/json/);
        const elements: unknown = JSON.parse(text);
        if (!Array.isArray(elements)) throw new Error("not a JSON array");
        expect(elements.length).toBeGreaterThan(0);
        const responses = elements.map((e) => Object.assign(new GenerateContentResponse(), e));
        const want = c.expect;
        if (!want) throw new Error("no expectation");
        const seen = seenOf(responses);
        expect(seen.text).toBe(want.text);
        expect(seen.toolCalls).toEqual(want.toolCalls);
        expect(seen.usage).toEqual(want.usage);
        expect(seen.finish).toBe(
          { stop: "STOP", length: "MAX_TOKENS", tool_calls: "STOP" }[want.stop],
        );
        if (want.reasoning !== undefined) expect(seen.reasoning).toBe(want.reasoning);
      }
      const records = m.records({ nonce });
      expect(records.map((r) => [r.stream, r.reply.staged])).toEqual([
        [true, true],
        [true, true],
      ]);
    });
  }

  it("is written as Google writes it: `[{`, `\\n,\\r\\n` between elements, `\\n]`", async () => {
    const m = mock();
    const usage = CASES.find((c) => c.name === "usage");
    if (!usage) throw new Error("no usage case");
    const nonce = stageCase(m, usage);
    const { text } = await readJsonArrayStream(m, nonce, "");
    const elements = JSON.parse(text) as unknown[];
    expect(elements.length).toBeGreaterThan(2);
    expect(text.split("\n,\r\n")).toHaveLength(elements.length);
    expect(text.startsWith("[{\n")).toBe(true);
    expect(text.endsWith("}\n]")).toBe(true);
  });
});

describe("@google/genai, a path Gemini does not serve", () => {
  const mock = useMock();
  it("gets a 404 though a staged reply's nonce matches", async () => {
    const m = mock();
    const text = CASES.find((c) => c.name === "text");
    if (!text) throw new Error("no text case");
    const nonce = stageCase(m, text);
    let thrown: unknown;
    try {
      await client(m, "v1beta/v1beta").models.generateContent({
        model: "gemini-2.5-pro",
        contents: prompt(nonce),
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).status).toBe(404);
    expect(m.records({ nonce }).map((r) => r.reply.staged)).toEqual([false]);
  });
});
