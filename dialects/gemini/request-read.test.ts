import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { stableStringify } from "../json.ts";
import { readRequest, writeRequestBody } from "../request.ts";

const dir = new URL("./fixtures/", import.meta.url);
const fixtures = readdirSync(dir).filter((f) => f.startsWith("request-") && f.endsWith(".json"));

function fixture(name: string): { path: string; body: Record<string, unknown>; written?: unknown } {
  return JSON.parse(readFileSync(new URL(name, dir), "utf8"));
}

function read(name: string) {
  const { path, body } = fixture(name);
  return readRequest("gemini", body, { path });
}

describe("gemini request fixtures", () => {
  it.each(fixtures)("%s: writing what was read gives the body back", (name) => {
    const { written, body } = fixture(name);
    expect(stableStringify(writeRequestBody("gemini", read(name)))).toBe(
      stableStringify(written ?? body),
    );
  });

  it("quickstart: a content without role is a user message; the model is from the path", () => {
    const r = read("request-text-generation-quickstart.json");
    expect(r.model).toBe("gemini-2.5-flash");
    expect(r.stream).toBe(false);
    expect(r.messages).toEqual([
      { role: "user", parts: [{ type: "text", text: "How does AI work?" }] },
    ]);
    expect(r.extras).toEqual({});
  });

  it("system_instruction (snake_case) and every generationConfig sampling field", () => {
    const r = read("request-system-instruction-config.json");
    expect(r.stream).toBe(true);
    expect(r.system).toEqual([{ type: "text", text: "You are a cat. Your name is Neko." }]);
    expect(r.sampling).toEqual({
      stop: ["Title"],
      temperature: 1,
      maxTokens: 800,
      topP: 0.8,
      topK: 10,
      seed: 42,
      presencePenalty: 0.5,
      frequencyPenalty: 0.25,
      n: 1,
    });
    expect(r.extras).toEqual({ generationConfig: { responseModalities: ["TEXT"] } });
  });

  it("function calling: call without id gets id '', args stringified, signature kept, response as JSON text", () => {
    const r = read("request-function-calling-guide-turn.json");
    expect(r.messages[1]).toEqual({
      role: "assistant",
      parts: [
        {
          type: "tool-call",
          id: "",
          name: "get_current_temperature",
          arguments: '{"location":"London"}',
          signature: "CiQBcsjafHTXqI4fhmXn0CObPjWc",
        },
      ],
    });
    expect(r.messages[2]?.parts).toEqual([
      {
        type: "tool-result",
        callId: "",
        name: "get_current_temperature",
        content: [{ type: "text", text: '{"temperature":15,"unit":"celsius"}' }],
      },
    ]);
    expect(r.tools).toEqual([
      {
        kind: "function",
        name: "get_current_temperature",
        description: "Gets the current temperature for a given location.",
        schema: {
          type: "object",
          properties: {
            location: { type: "string", description: "The city name, e.g. San Francisco" },
          },
          required: ["location"],
        },
      },
    ]);
    expect(r.toolChoice).toEqual({ mode: "tool", name: "get_current_temperature" });
  });

  it("inline_data and file_data: image by mime type, pdf as a document", () => {
    const r = read("request-image-understanding-inline.json");
    expect(r.messages[0]?.parts).toEqual([
      {
        type: "image",
        source: { kind: "base64", mediaType: "image/jpeg", data: "/9j/4AAQSkZJRg==" },
      },
      {
        type: "document",
        source: {
          kind: "url",
          url: "https://generativelanguage.googleapis.com/v1beta/files/abc-123",
          mediaType: "application/pdf",
        },
      },
      { type: "text", text: "Caption this image." },
    ]);
  });

  it("thinking budget, thought parts with signature, JSON schema output, safety settings raw", () => {
    const r = read("request-thinking-structured-output.json");
    expect(r.reasoning).toEqual({ mode: "enabled", budgetTokens: 1024, includeThoughts: true });
    expect(r.messages[1]?.parts).toEqual([
      { type: "thinking", text: "Thinking about cookies", signature: "c2lnLTE=" },
      { type: "text", text: "Here they are." },
    ]);
    expect(r.responseFormat).toMatchObject({ type: "json_schema", schema: { type: "ARRAY" } });
    expect(r.extras).toEqual({
      safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_ONLY_HIGH" }],
    });
  });
});

describe("gemini thought signatures and call ids", () => {
  it("reads an empty text part holding only a thoughtSignature as a signed thinking part", () => {
    const r = read("request-signature-carrier-part.json");
    expect(r.messages[1]?.parts).toEqual([
      { type: "thinking", text: "", signature: "EqQBCkYIBxgCKkDSIGPROBE==" },
      {
        type: "tool-call",
        id: "toolu_01THINK",
        name: "get_weather",
        arguments: '{"city":"Paris"}',
        signature: "EqQBCkYIBxgCKkDSIGPROBE==",
      },
    ]);
    expect(r.messages[2]?.parts[0]).toMatchObject({ type: "tool-result", callId: "toolu_01THINK" });
  });

  it("keeps a signature on visible text as the text part's extra, and empty text as text", () => {
    const r = readRequest("gemini", {
      contents: [
        {
          role: "model",
          parts: [{ text: "Hi", thoughtSignature: "c2ln" }, { text: "" }],
        },
      ],
    });
    expect(r.messages[0]?.parts).toEqual([
      { type: "text", text: "Hi", extras: { thoughtSignature: "c2ln" } },
      { type: "text", text: "" },
    ]);
  });
});

describe("gemini odd shapes are kept, never lost", () => {
  it("unknown parts, roles and tool entries stay raw; output/error responses read as text", () => {
    const body = {
      contents: [
        {
          role: "function",
          parts: [{ functionResponse: { name: "f", response: { output: "ok" } } }],
        },
        {
          role: "user",
          parts: [{ functionResponse: { id: "c2", name: "g", response: { error: "boom" } } }],
        },
        { role: "model", parts: [{ executableCode: { language: "PYTHON", code: "print(1)" } }] },
      ],
      tools: [{ googleSearch: {} }, { codeExecution: {} }],
      toolConfig: { functionCallingConfig: { mode: "VALIDATED" } },
      cachedContent: "cachedContents/abc",
    };
    const r = readRequest("gemini", body);
    expect(r.messages[0]).toEqual({
      role: "user",
      parts: [
        { type: "tool-result", callId: "", name: "f", content: [{ type: "text", text: "ok" }] },
      ],
      extras: { role: "function" },
    });
    expect(r.messages[1]?.parts[0]).toMatchObject({
      callId: "c2",
      isError: true,
      content: [{ type: "text", text: "boom" }],
    });
    expect(r.messages[2]?.parts[0]?.type).toBe("unknown");
    expect(r.tools.map((t) => t.kind)).toEqual(["googleSearch", "codeExecution"]);
    expect(r.toolChoice).toBeUndefined();
    expect(writeRequestBody("gemini", r)).toEqual(body);
  });

  it("thinkingBudget 0 is disabled and -1 adaptive, both kept as sent", () => {
    for (const [budget, mode] of [
      [0, "disabled"],
      [-1, "adaptive"],
    ] as const) {
      const body = {
        contents: [],
        generationConfig: { thinkingConfig: { thinkingBudget: budget } },
      };
      const r = readRequest("gemini", body);
      expect(r.reasoning).toEqual({ mode, budgetTokens: budget });
      expect(writeRequestBody("gemini", r)).toEqual(body);
    }
  });

  it("the JSON Schema spellings read to the same schema and are written as the classic keys", () => {
    const schema = { type: "object", additionalProperties: false };
    const r = readRequest("gemini", {
      contents: [],
      tools: [{ functionDeclarations: [{ name: "f", parametersJsonSchema: schema }] }],
      generationConfig: { responseMimeType: "application/json", responseJsonSchema: schema },
    });
    expect(r.tools[0]?.schema).toEqual(schema);
    expect(r.responseFormat).toEqual({ type: "json_schema", schema });
    expect(r.extras).toEqual({});
    expect(writeRequestBody("gemini", r)).toEqual({
      contents: [],
      tools: [{ functionDeclarations: [{ name: "f", parameters: schema }] }],
      generationConfig: { responseMimeType: "application/json", responseSchema: schema },
    });
  });
});

describe("gemini multimodal function responses", () => {
  it("functionResponse.parts are media of the tool result, after its response text", () => {
    const r = read("request-function-calling-multimodal-response.json");
    expect(r.messages[2]?.parts).toEqual([
      {
        type: "tool-result",
        callId: "",
        name: "get_image",
        content: [
          { type: "text", text: '{"image_ref":{"$ref":"instrument.jpg"}}' },
          {
            type: "image",
            source: { kind: "base64", mediaType: "image/jpeg", data: "/9j/4AAQSkZJRg==" },
          },
        ],
      },
    ]);
  });

  it("a response part of another shape (displayName) keeps the whole part raw", () => {
    const raw = {
      functionResponse: {
        name: "get_image",
        response: {},
        parts: [{ inlineData: { displayName: "a.jpg", mimeType: "image/jpeg", data: "AAAA" } }],
      },
    };
    const r = readRequest("gemini", { contents: [{ role: "user", parts: [raw] }] });
    expect(r.messages[0]?.parts).toEqual([{ type: "unknown", raw }]);
  });

  it("an Anthropic tool_result with an image and a PDF reaches Gemini as response text and parts", () => {
    const written = writeRequestBody(
      "gemini",
      readRequest("anthropic-messages", {
        max_tokens: 10,
        messages: [
          {
            role: "assistant",
            content: [{ type: "tool_use", id: "toolu_1", name: "snap", input: {} }],
          },
          {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: "toolu_1",
                content: [
                  { type: "text", text: "see attached" },
                  {
                    type: "image",
                    source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
                  },
                  {
                    type: "document",
                    source: { type: "base64", media_type: "application/pdf", data: "JVBERi0xLjQ=" },
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    expect(written.contents).toEqual([
      { role: "model", parts: [{ functionCall: { id: "toolu_1", name: "snap", args: {} } }] },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              id: "toolu_1",
              name: "snap",
              response: { output: "see attached" },
              parts: [
                { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } },
                { inlineData: { mimeType: "application/pdf", data: "JVBERi0xLjQ=" } },
              ],
            },
          },
        ],
      },
    ]);
    const back = readRequest("gemini", written);
    expect(back.messages[1]?.parts[0]).toMatchObject({
      type: "tool-result",
      content: [
        { type: "text", text: "see attached" },
        { type: "image", source: { kind: "base64", data: "iVBORw0KGgo=" } },
        { type: "document", source: { kind: "base64", data: "JVBERi0xLjQ=" } },
      ],
    });
  });
});
