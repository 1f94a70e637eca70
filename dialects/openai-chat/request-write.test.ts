import { describe, expect, it } from "vitest";
import type { CanonicalRequest } from "../canonical.ts";
import { readRequest, writeRequest, writeRequestBody } from "../request.ts";

/** Every field the Chat dialect can carry, once. */
const rich: CanonicalRequest = {
  dialect: "openai-chat",
  model: "gpt-4.1",
  system: [],
  messages: [
    { role: "system", parts: [{ type: "text", text: "Be brief." }] },
    { role: "developer", parts: [{ type: "text", text: "Answer in French." }] },
    {
      role: "user",
      name: "alice",
      parts: [
        { type: "text", text: "Look:" },
        {
          type: "image",
          source: { kind: "base64", mediaType: "image/png", data: "iVBORw0KGgo=" },
          detail: "high",
        },
        { type: "image", source: { kind: "url", url: "https://example.com/a.jpg" }, detail: "low" },
        { type: "audio", source: { kind: "base64", data: "UklGRg==" }, format: "mp3" },
        { type: "document", source: { kind: "file-id", fileId: "file-1" }, title: "a.pdf" },
        {
          type: "text",
          text: "marked",
          cache: { type: "ephemeral", raw: { type: "ephemeral" } },
          extras: { x_note: "kept" },
        },
      ],
    },
    {
      role: "assistant",
      parts: [
        { type: "reasoning", text: "thinking about it" },
        { type: "text", text: "Let me check." },
        { type: "refusal", text: "I can't share that part." },
        { type: "tool-call", id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
        { type: "tool-call", id: "call_2", name: "get_time", arguments: "" },
      ],
    },
    {
      role: "tool",
      parts: [{ type: "tool-result", callId: "call_1", content: [{ type: "text", text: "14C" }] }],
    },
    {
      role: "tool",
      parts: [
        {
          type: "tool-result",
          callId: "call_2",
          content: [
            { type: "text", text: "12:00" },
            { type: "text", text: "UTC" },
          ],
        },
      ],
    },
    { role: "assistant", parts: [{ type: "text", text: "" }] },
  ],
  tools: [
    {
      kind: "function",
      name: "get_weather",
      description: "Weather",
      schema: { type: "object" },
      strict: true,
    },
    { kind: "function", name: "get_time" },
  ],
  toolChoice: { mode: "required" },
  parallelToolCalls: false,
  sampling: {
    temperature: 0.3,
    topP: 0.9,
    topK: 40,
    maxTokens: 512,
    stop: ["STOP", "END"],
    seed: 7,
    presencePenalty: 0.1,
    frequencyPenalty: 0.2,
    n: 2,
  },
  responseFormat: { type: "json_schema", name: "answer", schema: { type: "object" }, strict: true },
  reasoning: { effort: "low" },
  metadata: { run: "r1" },
  user: "u1",
  stream: true,
  streamOptions: { includeUsage: true },
  serviceTier: "flex",
  logprobs: true,
  topLogprobs: 3,
  prediction: { type: "content", content: "PREDICTPROBE" },
  verbosity: "low",
  extras: { web_search_options: {} },
};

describe("openai-chat writer", () => {
  it("round trip: read(write(x)) equals x for a rich request", () => {
    expect(readRequest("openai-chat", writeRequestBody("openai-chat", rich))).toEqual(rich);
  });

  it("writes the documented spellings", () => {
    const body = writeRequestBody("openai-chat", rich);
    expect(body.max_tokens).toBe(512);
    expect(body.max_completion_tokens).toBeUndefined();
    expect(body.tool_choice).toBe("required");
    expect(body.parallel_tool_calls).toBe(false);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.logprobs).toBe(true);
    expect(body.top_logprobs).toBe(3);
    expect(body.prediction).toEqual({ type: "content", content: "PREDICTPROBE" });
    const messages = body.messages as Record<string, unknown>[];
    expect(messages[2]?.content).toContainEqual({
      type: "image_url",
      image_url: { url: "data:image/png;base64,iVBORw0KGgo=", detail: "high" },
    });
    expect(messages[3]).toMatchObject({
      reasoning_content: "thinking about it",
      content: "Let me check.",
      refusal: "I can't share that part.",
    });
  });

  it("tool results inside a user turn (Anthropic, Gemini) become tool messages first", () => {
    const request: CanonicalRequest = {
      dialect: "anthropic-messages",
      system: [{ type: "text", text: "sys" }],
      messages: [
        {
          role: "user",
          parts: [
            {
              type: "tool-result",
              callId: "t1",
              content: [{ type: "text", text: "a" }],
              isError: true,
            },
            { type: "tool-result", callId: "t2", content: [] },
            { type: "text", text: "next" },
          ],
        },
      ],
      tools: [{ kind: "web_search_20250305", name: "web_search", extras: { max_uses: 2 } }],
      sampling: {},
      extras: { container: "c1" },
    };
    expect(writeRequestBody("openai-chat", request)).toEqual({
      messages: [
        { role: "system", content: "sys" },
        { role: "tool", tool_call_id: "t1", content: "a" },
        { role: "tool", tool_call_id: "t2" },
        { role: "user", content: "next" },
      ],
    });
  });

  it("writes Anthropic adaptive and disabled thinking as effort levels; a budget alone stays out", () => {
    const thinking = (type: string, extra: object = {}) =>
      readRequest("anthropic-messages", {
        model: "m",
        max_tokens: 10,
        messages: [{ role: "user", content: "hi" }],
        thinking: { type, ...extra },
      });
    expect(writeRequestBody("openai-chat", thinking("adaptive")).reasoning_effort).toBe("medium");
    expect(writeRequestBody("openai-chat", thinking("disabled")).reasoning_effort).toBe("none");
    const enabled = thinking("enabled", { budget_tokens: 2048 });
    expect(writeRequestBody("openai-chat", enabled)).not.toHaveProperty("reasoning_effort");
    // An explicit level wins over the switch.
    const both = readRequest("anthropic-messages", {
      model: "m",
      max_tokens: 10,
      messages: [{ role: "user", content: "hi" }],
      thinking: { type: "adaptive" },
      output_config: { effort: "low" },
    });
    expect(writeRequestBody("openai-chat", both).reasoning_effort).toBe("low");
  });

  it("leaves out what Chat cannot carry and names each omission with its reason", () => {
    const request = readRequest("anthropic-messages", {
      model: "m",
      max_tokens: 10,
      top_k: 5,
      thinking: { type: "enabled", budget_tokens: 2048 },
      cache_control: { type: "ephemeral" },
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }],
        },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hmm", signature: "sig" },
            { type: "text", text: "ok" },
          ],
        },
      ],
    });
    const { body, omitted } = writeRequest("openai-chat", request);
    expect(body).not.toHaveProperty("top_k");
    expect(body).not.toHaveProperty("cache_control");
    expect(JSON.stringify(body)).not.toContain("hmm");
    expect(omitted.map((o) => o.subject).sort()).toEqual([
      "cache",
      "messages.cache",
      "messages.thinking",
      "messages.thinking.signature",
      "reasoning.budget-tokens",
      "sampling.top-k",
    ]);
    expect(omitted.find((o) => o.subject === "sampling.top-k")?.reason).toBe(
      "Chat Completions has no top_k",
    );
  });

  it("reads a named custom tool's tool_choice and writes it back in its own form", () => {
    const body = {
      model: "m",
      messages: [{ role: "user", content: "Hi" }],
      tools: [{ type: "custom", custom: { name: "code_exec", description: "Runs code" } }],
      tool_choice: { type: "custom", custom: { name: "code_exec" } },
    };
    const read = readRequest("openai-chat", body);
    expect(read.toolChoice).toEqual({ mode: "tool", name: "code_exec" });
    expect(read.extras).toEqual({});
    expect(writeRequestBody("openai-chat", read)).toEqual(body);
  });
});
