import { describe, expect, it } from "vitest";
import type { CanonicalRequest } from "../canonical.ts";
import { readRequest, requestPath, writeRequest, writeRequestBody } from "../request.ts";
import { mimeTypeOfUrl } from "./request-write.ts";

/** Every field the Gemini dialect can carry, once. */
const rich: CanonicalRequest = {
  dialect: "gemini",
  model: "gemini-2.5-pro",
  system: [{ type: "text", text: "Be brief." }],
  messages: [
    {
      role: "user",
      parts: [
        { type: "text", text: "Look:" },
        { type: "image", source: { kind: "base64", mediaType: "image/png", data: "iVBORw0KGgo=" } },
        { type: "audio", source: { kind: "base64", mediaType: "audio/wav", data: "UklGRg==" } },
        {
          type: "document",
          source: { kind: "url", url: "gs://bucket/a.pdf", mediaType: "application/pdf" },
        },
        { type: "document", source: { kind: "url", url: "https://example.com/page" } },
      ],
    },
    {
      role: "assistant",
      parts: [
        { type: "thinking", text: "hmm", signature: "sig-a" },
        { type: "text", text: "Calling.", extras: { thoughtSignature: "sig-b" } },
        {
          type: "tool-call",
          id: "call-1",
          name: "get_weather",
          arguments: '{"city":"Paris"}',
          signature: "sig-c",
        },
        { type: "tool-call", id: "", name: "get_time", arguments: "" },
      ],
    },
    {
      role: "user",
      parts: [
        {
          type: "tool-result",
          callId: "call-1",
          name: "get_weather",
          content: [{ type: "text", text: '{"temp":14}' }],
        },
        {
          type: "tool-result",
          callId: "",
          name: "get_time",
          content: [{ type: "text", text: "noon" }],
        },
        {
          type: "tool-result",
          callId: "",
          name: "get_time",
          content: [{ type: "text", text: "down" }],
          isError: true,
        },
      ],
    },
  ],
  tools: [
    { kind: "function", name: "get_weather", description: "Weather", schema: { type: "object" } },
    { kind: "function", name: "get_time", extras: { behavior: "NON_BLOCKING" } },
    { kind: "googleSearch", name: "", extras: { googleSearch: {} } },
  ],
  toolChoice: { mode: "required" },
  sampling: {
    temperature: 0.3,
    topP: 0.9,
    topK: 40,
    maxTokens: 512,
    stop: ["STOP"],
    seed: 7,
    presencePenalty: 0.1,
    frequencyPenalty: 0.2,
    n: 2,
  },
  responseFormat: { type: "json_schema", schema: { type: "object" } },
  reasoning: { mode: "enabled", budgetTokens: 2048, effort: "high" },
  stream: true,
  extras: { safetySettings: [], generationConfig: { responseModalities: ["TEXT"] } },
};

describe("gemini writer", () => {
  it("round trip: read(write(x)) equals x for a rich request (model and stream via the path)", () => {
    const path = requestPath("gemini", rich);
    expect(path).toBe("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
    expect(readRequest("gemini", writeRequestBody("gemini", rich), { path })).toEqual(rich);
  });

  it("the body carries neither the model nor stream", () => {
    const body = writeRequestBody("gemini", rich);
    expect(body).not.toHaveProperty("model");
    expect(body).not.toHaveProperty("stream");
  });

  it("from Chat: tool results get the function name from their call, text results wrap as output", () => {
    const chat = readRequest("openai-chat", {
      model: "m",
      messages: [
        { role: "developer", content: "dev" },
        {
          role: "assistant",
          tool_calls: [
            { id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } },
            { id: "c2", type: "function", function: { name: "g", arguments: "{}" } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "plain" },
        { role: "tool", tool_call_id: "c2", content: '{"b":2}' },
      ],
      tool_choice: { type: "function", function: { name: "f" } },
      response_format: { type: "json_object" },
    });
    expect(writeRequestBody("gemini", chat)).toEqual({
      systemInstruction: { parts: [{ text: "dev" }] },
      contents: [
        {
          role: "model",
          parts: [
            { functionCall: { id: "c1", name: "f", args: { a: 1 } } },
            { functionCall: { id: "c2", name: "g", args: {} } },
          ],
        },
        {
          role: "user",
          parts: [
            { functionResponse: { id: "c1", name: "f", response: { output: "plain" } } },
            { functionResponse: { id: "c2", name: "g", response: { b: 2 } } },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["f"] } },
      generationConfig: { responseMimeType: "application/json" },
    });
  });

  it("a URL image without a media type gets one from its extension, so it stays an image", () => {
    const anthropic = readRequest("anthropic-messages", {
      model: "m",
      max_tokens: 10,
      messages: [
        {
          role: "user",
          content: [
            { type: "image", source: { type: "url", url: "https://x.test/a/pic.JPG?v=2" } },
            { type: "image", source: { type: "url", url: "https://x.test/pic" } },
          ],
        },
      ],
    });
    const body = writeRequestBody("gemini", anthropic);
    expect(body.contents).toEqual([
      {
        role: "user",
        parts: [
          { fileData: { mimeType: "image/jpeg", fileUri: "https://x.test/a/pic.JPG?v=2" } },
          // No extension, no type: Gemini is not told it is an image (the lens sees the loss).
          { fileData: { fileUri: "https://x.test/pic" } },
        ],
      },
    ]);
    const back = readRequest("gemini", body, { path: requestPath("gemini", anthropic) });
    expect(back.messages[0]?.parts.map((p) => p.type)).toEqual(["image", "document"]);
  });

  it("names the MIME type of documented extensions only", () => {
    expect(mimeTypeOfUrl("https://x.test/doc.pdf")).toBe("application/pdf");
    expect(mimeTypeOfUrl("gs://b/clip.flac#t=1")).toBe("audio/flac");
    expect(mimeTypeOfUrl("https://x.test/a.b/file")).toBeUndefined();
    expect(mimeTypeOfUrl("https://x.test/page.html")).toBeUndefined();
    expect(mimeTypeOfUrl("https://x.test/constructor")).toBeUndefined();
    expect(mimeTypeOfUrl("https://x.test/x.constructor")).toBeUndefined();
  });

  it("joins a result's text parts with a blank line and replays a refusal as text", () => {
    const chat = readRequest("openai-chat", {
      model: "m",
      messages: [
        { role: "user", content: "Tell me." },
        { role: "assistant", content: null, refusal: "I can't." },
        {
          role: "assistant",
          tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        {
          role: "tool",
          tool_call_id: "c1",
          content: [
            { type: "text", text: "first." },
            { type: "text", text: "Second" },
          ],
        },
      ],
    });
    const contents = writeRequestBody("gemini", chat).contents as unknown[];
    expect(contents[1]).toEqual({ role: "model", parts: [{ text: "I can't." }] });
    expect(contents[3]).toEqual({
      role: "user",
      parts: [
        {
          functionResponse: { id: "c1", name: "f", response: { output: "first.\n\nSecond" } },
        },
      ],
    });
  });

  it("leaves out what Gemini cannot carry and names each omission with its reason", () => {
    const request = readRequest("openai-chat", {
      model: "m",
      user: "u1",
      parallel_tool_calls: false,
      tools: [
        { type: "function", function: { name: "f", parameters: { type: "object" }, strict: true } },
      ],
      messages: [{ role: "user", content: "hi" }],
    });
    const { body, omitted } = writeRequest("gemini", request);
    expect(JSON.stringify(body)).not.toContain("u1");
    expect(JSON.stringify(body)).not.toContain("strict");
    expect(omitted.map((o) => o.subject).sort()).toEqual([
      "parallel-tool-calls",
      "tools.strict",
      "user",
    ]);
    expect(omitted.find((o) => o.subject === "user")?.reason).toBe(
      "generateContent has no end-user id",
    );
  });
});
