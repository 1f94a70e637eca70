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
  return readRequest("ollama", fixture(name).body);
}

describe("ollama request fixtures", () => {
  it.each(fixtures)("%s: writing what was read gives the body back", (name) => {
    const { body, written } = fixture(name);
    expect(stableStringify(writeRequestBody("ollama", readRequest("ollama", body)))).toBe(
      stableStringify(written ?? body),
    );
  });

  it("no streaming: stream false is kept", () => {
    const r = read("request-api-chat-no-streaming.json");
    expect(r).toEqual({
      dialect: "ollama",
      model: "llama3.2",
      system: [],
      messages: [{ role: "user", parts: [{ type: "text", text: "why is the sky blue?" }] }],
      tools: [],
      sampling: {},
      stream: false,
      extras: {},
    });
  });

  it("history: stream absent stays undefined", () => {
    const r = read("request-api-chat-with-history.json");
    expect(r.stream).toBeUndefined();
    expect(r.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });

  it("images: base64 image parts after the text", () => {
    const r = read("request-api-chat-with-images.json");
    expect(r.messages[0]?.parts[0]).toEqual({ type: "text", text: "what is in this image?" });
    expect(r.messages[0]?.parts[1]).toMatchObject({ type: "image", source: { kind: "base64" } });
    expect(r.messages[0]?.parts[1]).not.toHaveProperty("source.mediaType");
  });

  it("options: sampling fields mapped, the rest raw; keep_alive raw", () => {
    const r = read("request-api-chat-reproducible-outputs.json");
    expect(r.sampling).toEqual({
      seed: 101,
      temperature: 0,
      topK: 20,
      topP: 0.9,
      maxTokens: 100,
      stop: ["\n", "user:"],
      presencePenalty: 1.5,
      frequencyPenalty: 1,
    });
    expect(r.extras).toEqual({ options: { num_ctx: 1024, repeat_penalty: 1.2 }, keep_alive: "5m" });
  });

  it("tools: function tools with their schema", () => {
    const r = read("request-api-chat-with-tools.json");
    expect(r.tools[0]).toMatchObject({ kind: "function", name: "get_current_weather" });
    expect(r.tools[0]?.schema).toMatchObject({ required: ["location", "format"] });
  });

  it("tool turn: thinking is reasoning, object arguments stringified, the raw list kept for its index", () => {
    const r = read("request-tool-calling-thinking-turn.json");
    expect(r.reasoning).toEqual({ mode: "adaptive" });
    expect(r.messages[1]).toEqual({
      role: "assistant",
      parts: [
        { type: "reasoning", text: "I should call get_temperature for New York." },
        { type: "text", text: "" },
        { type: "tool-call", id: "", name: "get_temperature", arguments: '{"city":"New York"}' },
      ],
      extras: {
        tool_calls: [
          {
            type: "function",
            function: { index: 0, name: "get_temperature", arguments: { city: "New York" } },
          },
        ],
      },
    });
    expect(r.messages[2]).toEqual({
      role: "tool",
      parts: [
        {
          type: "tool-result",
          callId: "",
          name: "get_temperature",
          content: [{ type: "text", text: "22°C" }],
        },
      ],
    });
  });

  it("structured outputs: a schema format is json_schema", () => {
    const r = read("request-structured-outputs.json");
    expect(r.responseFormat).toMatchObject({
      type: "json_schema",
      schema: { required: ["age", "available"] },
    });
    expect(r.sampling).toEqual({ temperature: 0 });
  });
});

describe("ollama odd shapes are kept, never lost", () => {
  it("think levels, format json, content arrays and odd tool calls stay as sent", () => {
    const body = {
      model: "gpt-oss",
      messages: [
        { role: "user", content: [{ type: "text", text: "x" }] },
        { role: "assistant", tool_calls: [{ function: { name: "f", arguments: "{}" } }] },
      ],
      think: "high",
      format: "json",
    };
    const r = readRequest("ollama", body);
    expect(r.reasoning).toEqual({ effort: "high" });
    expect(r.responseFormat).toEqual({ type: "json_object" });
    expect(r.messages[0]).toEqual({
      role: "user",
      parts: [],
      extras: { content: [{ type: "text", text: "x" }] },
    });
    expect(r.messages[1]?.extras).toEqual({
      tool_calls: [{ function: { name: "f", arguments: "{}" } }],
    });
    expect(writeRequestBody("ollama", r)).toEqual(body);
  });
});
