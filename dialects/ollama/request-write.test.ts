import { describe, expect, it } from "vitest";
import type { CanonicalRequest } from "../canonical.ts";
import { readRequest, writeRequest, writeRequestBody } from "../request.ts";

/** Every field the Ollama dialect can carry, once: no tool-call id (Ollama defines none; a
 * result names its call's function in `tool_name`). */
const rich: CanonicalRequest = {
  dialect: "ollama",
  model: "qwen3",
  system: [],
  messages: [
    { role: "system", parts: [{ type: "text", text: "Be brief." }] },
    {
      role: "user",
      parts: [
        { type: "text", text: "Look:" },
        { type: "image", source: { kind: "base64", data: "iVBORw0KGgo=" } },
        { type: "image", source: { kind: "base64", data: "R0lGODlh" } },
      ],
    },
    {
      role: "assistant",
      parts: [
        { type: "reasoning", text: "need the weather" },
        { type: "text", text: "" },
        { type: "tool-call", id: "", name: "get_weather", arguments: '{"city":"Paris"}' },
        { type: "tool-call", id: "", name: "get_time", arguments: "{}" },
      ],
    },
    {
      role: "tool",
      parts: [
        {
          type: "tool-result",
          callId: "",
          name: "get_weather",
          content: [{ type: "text", text: "14C" }],
        },
      ],
    },
    {
      role: "tool",
      parts: [
        {
          type: "tool-result",
          callId: "",
          name: "get_time",
          content: [{ type: "text", text: "noon" }],
        },
      ],
    },
  ],
  tools: [
    { kind: "function", name: "get_weather", description: "Weather", schema: { type: "object" } },
  ],
  sampling: {
    temperature: 0.3,
    topP: 0.9,
    topK: 40,
    maxTokens: 512,
    stop: ["STOP"],
    seed: 7,
    presencePenalty: 0.1,
    frequencyPenalty: 0.2,
  },
  responseFormat: { type: "json_schema", schema: { type: "object" } },
  reasoning: { mode: "disabled" },
  stream: true,
  extras: { keep_alive: -1, options: { num_ctx: 8192 } },
};

describe("ollama writer", () => {
  it("round trip: read(write(x)) equals x for a rich request", () => {
    expect(readRequest("ollama", writeRequestBody("ollama", rich))).toEqual(rich);
  });

  it("from Anthropic: system to a system message, tool_result to tool messages named from their call", () => {
    const anthropic = readRequest("anthropic-messages", {
      model: "m",
      max_tokens: 100,
      system: "sys",
      messages: [
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_1", name: "f", input: { a: 1 } }],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "toolu_1", content: "r" },
            { type: "text", text: "go" },
          ],
        },
      ],
      stop_sequences: ["S"],
      thinking: { type: "enabled", budget_tokens: 1024 },
    });
    expect(writeRequestBody("ollama", anthropic)).toEqual({
      model: "m",
      messages: [
        { role: "system", content: "sys" },
        {
          role: "assistant",
          tool_calls: [{ function: { name: "f", arguments: { a: 1 } } }],
        },
        { role: "tool", content: "r", tool_name: "f" },
        { role: "user", content: "go" },
      ],
      options: { num_predict: 100, stop: ["S"] },
      think: true,
    });
  });

  it("joins text parts with a blank line, system blocks included, and replays a refusal as content", () => {
    const anthropic = readRequest("anthropic-messages", {
      model: "m",
      max_tokens: 10,
      system: [
        { type: "text", text: "First block." },
        { type: "text", text: "Second block." },
      ],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "one" },
            { type: "text", text: "two" },
          ],
        },
      ],
    });
    const chat = readRequest("openai-chat", {
      model: "m",
      messages: [
        { role: "user", content: "Tell me." },
        { role: "assistant", content: null, refusal: "I can't." },
      ],
    });
    expect(writeRequestBody("ollama", anthropic).messages).toEqual([
      { role: "system", content: "First block.\n\nSecond block." },
      { role: "user", content: "one\n\ntwo" },
    ]);
    expect(writeRequestBody("ollama", chat).messages).toEqual([
      { role: "user", content: "Tell me." },
      { role: "assistant", content: "I can't." },
    ]);
  });

  it("leaves out what Ollama cannot carry and names each omission with its reason", () => {
    const request = readRequest("openai-chat", {
      model: "m",
      tool_choice: "required",
      service_tier: "flex",
      messages: [
        {
          role: "user",
          content: [{ type: "image_url", image_url: { url: "https://x.test/a.png" } }],
        },
      ],
    });
    const { body, omitted } = writeRequest("ollama", request);
    expect(body).not.toHaveProperty("tool_choice");
    expect(body).not.toHaveProperty("service_tier");
    expect(JSON.stringify(body)).not.toContain("x.test");
    expect(omitted.map((o) => o.subject).sort()).toEqual([
      "messages.image.url",
      "service-tier",
      "tool-choice",
    ]);
  });
});
