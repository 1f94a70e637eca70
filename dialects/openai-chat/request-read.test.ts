import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { stableStringify } from "../json.ts";
import { readRequest, writeRequestBody } from "../request.ts";

const dir = new URL("./fixtures/", import.meta.url);
const fixtures = readdirSync(dir).filter((f) => f.startsWith("request-") && f.endsWith(".json"));

function fixture(name: string): { body: Record<string, unknown>; written?: unknown } {
  return JSON.parse(readFileSync(new URL(name, dir), "utf8"));
}

function read(name: string) {
  return readRequest("openai-chat", fixture(name).body);
}

describe("openai-chat request fixtures", () => {
  it.each(fixtures)("%s: writing what was read gives the body back", (name) => {
    const { body, written } = fixture(name);
    expect(stableStringify(writeRequestBody("openai-chat", readRequest("openai-chat", body)))).toBe(
      stableStringify(written ?? body),
    );
  });

  it("default: developer and user roles stay messages with their roles", () => {
    const r = read("request-api-reference-default.json");
    expect(r.model).toBe("gpt-4.1");
    expect(r.system).toEqual([]);
    expect(r.messages).toEqual([
      { role: "developer", parts: [{ type: "text", text: "You are a helpful assistant." }] },
      { role: "user", parts: [{ type: "text", text: "Hello!" }] },
    ]);
    expect(r.extras).toEqual({});
    expect(r.sampling).toEqual({});
    expect(r.stream).toBeUndefined();
  });

  it("an image_url part with a key beside it is still the image, the key kept as an extra", () => {
    const body = {
      model: "m",
      messages: [
        {
          role: "user",
          content: [
            {
              type: "image_url",
              image_url: { url: "data:image/png;base64,iVBORw0KGgo=" },
              media_type: "image/png",
            },
          ],
        },
      ],
    };
    const r = readRequest("openai-chat", body);
    expect(r.messages[0]?.parts).toEqual([
      {
        type: "image",
        source: { kind: "base64", mediaType: "image/png", data: "iVBORw0KGgo=" },
        extras: { media_type: "image/png" },
      },
    ]);
    expect(stableStringify(writeRequestBody("openai-chat", r))).toBe(stableStringify(body));
  });

  it("image input: an image_url part is an image with a url source", () => {
    const r = read("request-api-reference-image-input.json");
    expect(r.messages[0]?.parts).toEqual([
      { type: "text", text: "What's in this image?" },
      {
        type: "image",
        source: {
          kind: "url",
          url: "https://upload.wikimedia.org/wikipedia/commons/thumb/d/dd/Gfp-wisconsin-madison-the-nature-boardwalk.jpg/2560px-Gfp-wisconsin-madison-the-nature-boardwalk.jpg",
        },
      },
    ]);
    expect(r.sampling.maxTokens).toBe(300);
  });

  it("functions: tools and tool_choice auto", () => {
    const r = read("request-api-reference-functions.json");
    expect(r.tools).toHaveLength(1);
    expect(r.tools[0]).toMatchObject({
      kind: "function",
      name: "get_current_weather",
      description: "Get the current weather in a given location",
    });
    expect(r.tools[0]?.schema).toMatchObject({ required: ["location"] });
    expect(r.tools[0]?.strict).toBeUndefined();
    expect(r.toolChoice).toEqual({ mode: "auto" });
  });

  it("tool turn: null content is no parts, refusal null is kept raw, tool message is a tool result", () => {
    const r = read("request-function-calling-guide-tool-turn.json");
    expect(r.messages[1]).toEqual({
      role: "assistant",
      parts: [
        {
          type: "tool-call",
          id: "call_12345xyz",
          name: "get_weather",
          arguments: '{"latitude":48.8566,"longitude":2.3522}',
        },
      ],
      extras: { refusal: null },
    });
    expect(r.messages[2]).toEqual({
      role: "tool",
      parts: [
        { type: "tool-result", callId: "call_12345xyz", content: [{ type: "text", text: "14" }] },
      ],
    });
    expect(r.tools[0]?.strict).toBe(true);
    expect(r.parallelToolCalls).toBe(false);
    expect(r.toolChoice).toEqual({ mode: "tool", name: "get_weather" });
  });

  it("structured outputs: json_schema with name and strict", () => {
    const r = read("request-structured-outputs-guide.json");
    expect(r.responseFormat).toMatchObject({
      type: "json_schema",
      name: "math_response",
      strict: true,
    });
    expect(r.responseFormat?.schema).toMatchObject({ required: ["steps", "final_answer"] });
    expect(r.messages[0]?.role).toBe("system");
  });

  it("audio and files: input_audio, file_data as a data URL, file_id; unknown keys to extras", () => {
    const r = read("request-audio-and-pdf-guides.json");
    expect(r.messages[0]?.parts.slice(1)).toEqual([
      {
        type: "audio",
        source: { kind: "base64", data: "UklGRiQAAABXQVZFZm10IBAAAAABAAEA" },
        format: "wav",
      },
      {
        type: "document",
        source: { kind: "base64", mediaType: "application/pdf", data: "JVBERi0xLjQK" },
        title: "draconomicon.pdf",
      },
      { type: "document", source: { kind: "file-id", fileId: "file-6F2ksmvXxt4VdoqmHRw6kL" } },
    ]);
    expect(r.extras).toEqual({
      modalities: ["text", "audio"],
      audio: { voice: "alloy", format: "wav" },
    });
    expect(r.stream).toBe(true);
    expect(r.streamOptions).toEqual({ includeUsage: true });
  });

  it("reasoning_content, empty content and every sampling field", () => {
    const r = read("request-deepseek-thinking-mode-tool-turn.json");
    expect(r.messages[1]?.parts).toEqual([
      {
        type: "reasoning",
        text: "The user asks about tomorrow's weather in Hangzhou. I need the date first.",
      },
      { type: "text", text: "" },
      { type: "tool-call", id: "call_00_date", name: "get_date", arguments: "{}" },
    ]);
    expect(r.sampling).toEqual({
      temperature: 0.3,
      topP: 0.9,
      topK: 40,
      maxTokens: 2048,
      stop: ["STOPPROBE"],
      seed: 42,
      presencePenalty: 0.5,
      frequencyPenalty: 0.25,
      n: 1,
    });
    expect(r.reasoning).toEqual({ effort: "high" });
    expect(r.metadata).toEqual({ probe: "p1" });
    expect(r.user).toBe("user-1234");
    expect(r.serviceTier).toBe("auto");
    expect(r.extras).toEqual({});
  });
});

describe("openai-chat: Gemini thought signatures (OpenAI compatibility)", () => {
  it("extra_content.google.thought_signature is the call's signature, nothing kept raw", () => {
    const r = read("request-gemini-thought-signature.json");
    expect(r.messages[1]).toEqual({
      role: "assistant",
      parts: [
        {
          type: "tool-call",
          id: "function-call-1",
          name: "check_flight",
          arguments: '{"flight":"AA100"}',
          signature: "<Signature A>",
        },
      ],
    });
  });

  it("other keys beside the signature keep the raw list, and the signature is still read", () => {
    const call = {
      id: "c1",
      type: "function",
      function: { name: "f", arguments: "{}" },
      extra_content: { google: { thought_signature: "sig", other: 1 } },
    };
    const r = readRequest("openai-chat", { messages: [{ role: "assistant", tool_calls: [call] }] });
    expect(r.messages[0]?.parts).toEqual([
      { type: "tool-call", id: "c1", name: "f", arguments: "{}", signature: "sig" },
    ]);
    expect(r.messages[0]?.extras).toEqual({ tool_calls: [call] });
  });

  it("reaches Gemini as the functionCall part's thoughtSignature", () => {
    const written = writeRequestBody("gemini", read("request-gemini-thought-signature.json"));
    expect(written.contents).toEqual([
      {
        role: "user",
        parts: [{ text: "Check flight status for AA100 and book a taxi if delayed." }],
      },
      {
        role: "model",
        parts: [
          {
            functionCall: {
              id: "function-call-1",
              name: "check_flight",
              args: { flight: "AA100" },
            },
            thoughtSignature: "<Signature A>",
          },
        ],
      },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              id: "function-call-1",
              name: "check_flight",
              response: { status: "delayed", departure_time: "12 PM" },
            },
          },
        ],
      },
    ]);
  });
});

describe("openai-chat odd shapes are kept, never lost", () => {
  it("a value of the wrong type stays raw in extras", () => {
    const r = readRequest("openai-chat", {
      messages: [],
      temperature: "0.3",
      stop: null,
      tools: "x",
    });
    expect(r.sampling.temperature).toBeUndefined();
    expect(r.extras).toEqual({ temperature: "0.3", stop: null, tools: "x" });
  });

  it("both max_tokens and max_completion_tokens: the second stays in extras", () => {
    const r = readRequest("openai-chat", {
      messages: [],
      max_tokens: 10,
      max_completion_tokens: 20,
    });
    expect(r.sampling.maxTokens).toBe(10);
    expect(r.extras).toEqual({ max_completion_tokens: 20 });
  });

  it("unknown part types, unknown roles and unknown tool_choice shapes are kept whole", () => {
    const body = {
      messages: [
        { role: "function", name: "f", content: "legacy" },
        { role: "user", content: [{ type: "video_url", video_url: { url: "v" } }] },
        { role: "assistant", content: "x", tool_calls: [] },
      ],
      tool_choice: { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [] } },
    };
    const r = readRequest("openai-chat", body);
    expect(r.messages[0]).toEqual({
      role: "user",
      name: "f",
      parts: [{ type: "text", text: "legacy" }],
      extras: { role: "function" },
    });
    expect(r.messages[1]?.parts).toEqual([
      { type: "unknown", raw: { type: "video_url", video_url: { url: "v" } } },
    ]);
    expect(r.messages[2]?.extras).toEqual({ tool_calls: [] });
    expect(r.toolChoice).toBeUndefined();
    expect(r.extras).toEqual({ tool_choice: body.tool_choice });
    expect(writeRequestBody("openai-chat", r)).toEqual(body);
  });

  it("content absent stays absent, content '' is an empty text part", () => {
    const r = readRequest("openai-chat", {
      messages: [{ role: "assistant" }, { role: "assistant", content: "" }],
    });
    expect(r.messages[0]?.parts).toEqual([]);
    expect(r.messages[1]?.parts).toEqual([{ type: "text", text: "" }]);
  });

  it("cache_control on a text part (LiteLLM, OpenRouter) is a cache marker, carried to Anthropic", () => {
    const body = {
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "long", cache_control: { type: "ephemeral" } }],
        },
      ],
    };
    const r = readRequest("openai-chat", body);
    expect(r.messages[0]?.parts).toEqual([
      { type: "text", text: "long", cache: { type: "ephemeral", raw: { type: "ephemeral" } } },
    ]);
    expect(writeRequestBody("openai-chat", r)).toEqual(body);
    expect(writeRequestBody("anthropic-messages", r).messages).toEqual([
      {
        role: "user",
        content: [{ type: "text", text: "long", cache_control: { type: "ephemeral" } }],
      },
    ]);
  });

  it("a tool call with extra keys stays typed and the raw list is kept for an exact write", () => {
    const body = {
      messages: [
        {
          role: "assistant",
          tool_calls: [
            { index: 0, id: "c1", type: "function", function: { name: "f", arguments: "{}" } },
            { id: "c2", function: { name: "g", arguments: "" } },
          ],
        },
      ],
    };
    const r = readRequest("openai-chat", body);
    expect(r.messages[0]?.parts).toEqual([
      { type: "tool-call", id: "c1", name: "f", arguments: "{}" },
      { type: "tool-call", id: "c2", name: "g", arguments: "" },
    ]);
    expect(r.messages[0]?.extras).toEqual({ tool_calls: body.messages[0]?.tool_calls });
    expect(writeRequestBody("openai-chat", r)).toEqual({
      messages: [{ ...body.messages[0], content: null }],
    });
  });
});
