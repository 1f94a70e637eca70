import { describe, expect, it } from "vitest";
import type { CanonicalRequest } from "../canonical.ts";
import { readRequest, writeRequest, writeRequestBody } from "../request.ts";

const ephemeral = { type: "ephemeral", raw: { type: "ephemeral" } };

/** Every field the Anthropic dialect can carry, once. */
const rich: CanonicalRequest = {
  dialect: "anthropic-messages",
  model: "claude-sonnet-4-5",
  system: [
    { type: "text", text: "You are terse." },
    {
      type: "text",
      text: "Long context.",
      cache: { type: "ephemeral", ttl: "1h", raw: { type: "ephemeral", ttl: "1h" } },
    },
  ],
  messages: [
    {
      role: "user",
      parts: [
        { type: "text", text: "Look:", extras: { citations: null } },
        { type: "image", source: { kind: "base64", mediaType: "image/png", data: "iVBORw0KGgo=" } },
        { type: "image", source: { kind: "file-id", fileId: "file_011" }, cache: ephemeral },
        {
          type: "document",
          source: { kind: "base64", mediaType: "application/pdf", data: "JVBERi0=" },
          title: "Report",
        },
        { type: "document", source: { kind: "url", url: "https://example.com/a.pdf" } },
      ],
    },
    {
      role: "assistant",
      parts: [
        { type: "thinking", text: "hmm", signature: "sig-1" },
        { type: "thinking", text: "", signature: "opaque", redacted: true },
        { type: "text", text: "Calling." },
        { type: "tool-call", id: "toolu_1", name: "get_weather", arguments: '{"city":"Paris"}' },
        { type: "tool-call", id: "toolu_2", name: "get_time", arguments: "{}", cache: ephemeral },
      ],
    },
    {
      role: "user",
      parts: [
        { type: "tool-result", callId: "toolu_1", content: [{ type: "text", text: "14C" }] },
        {
          type: "tool-result",
          callId: "toolu_2",
          content: [
            { type: "text", text: "down" },
            { type: "image", source: { kind: "url", url: "https://example.com/x.png" } },
          ],
          isError: true,
          cache: ephemeral,
        },
        { type: "tool-result", callId: "toolu_3", content: [] },
      ],
      extras: { note: "kept" },
    },
  ],
  tools: [
    {
      kind: "function",
      name: "get_weather",
      description: "Weather",
      schema: { type: "object" },
      strict: true,
      cache: ephemeral,
    },
    { kind: "function", name: "get_time", extras: { input_examples: [{}] } },
    { kind: "web_search_20250305", name: "web_search", extras: { max_uses: 3 } },
  ],
  toolChoice: { mode: "tool", name: "get_weather" },
  parallelToolCalls: false,
  sampling: { temperature: 0.3, topP: 0.9, topK: 40, maxTokens: 4096, stop: ["STOPPROBE"] },
  responseFormat: { type: "json_schema", schema: { type: "object" } },
  reasoning: { mode: "enabled", budgetTokens: 2048, effort: "high" },
  user: "user-1",
  stream: true,
  serviceTier: "auto",
  cache: ephemeral,
  mcpServers: [
    {
      name: "probe",
      url: "https://mcp.example.com/MCPPROBE",
      allowedTools: ["search"],
      extras: { tool_configuration: { enabled: true } },
    },
  ],
  contextManagement: { edits: [{ type: "clear_tool_uses_20250919" }] },
  extras: { container: "c1" },
};

describe("anthropic-messages writer", () => {
  it("round trip: read(write(x)) equals x for a rich request", () => {
    expect(readRequest("anthropic-messages", writeRequestBody("anthropic-messages", rich))).toEqual(
      rich,
    );
  });

  it("writes tool_choice and parallelism as one object", () => {
    const body = writeRequestBody("anthropic-messages", rich);
    expect(body.tool_choice).toEqual({
      type: "tool",
      name: "get_weather",
      disable_parallel_tool_use: true,
    });
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(body.output_config).toEqual({
      effort: "high",
      format: { type: "json_schema", schema: { type: "object" } },
    });
    expect(body.metadata).toEqual({ user_id: "user-1" });
  });

  it("from Chat: system messages lift into system, tool messages merge into one user turn", () => {
    const chat = readRequest("openai-chat", {
      model: "m",
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "c1", type: "function", function: { name: "a", arguments: "" } },
            { id: "c2", type: "function", function: { name: "b", arguments: "not json" } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "r1" },
        { role: "tool", tool_call_id: "c2", content: "r2" },
      ],
      parallel_tool_calls: true,
      seed: 1,
    });
    expect(writeRequestBody("anthropic-messages", chat)).toEqual({
      model: "m",
      system: "sys",
      messages: [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "c1", name: "a", input: {} },
            { type: "tool_use", id: "c2", name: "b", input: "not json" },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "c1", content: "r1" },
            { type: "tool_result", tool_use_id: "c2", content: "r2" },
          ],
        },
      ],
      tool_choice: { type: "auto", disable_parallel_tool_use: false },
    });
  });

  it("replays a Chat refusal as an assistant text block (Messages has no refusal block)", () => {
    const chat = readRequest("openai-chat", {
      model: "m",
      messages: [
        { role: "user", content: "Tell me." },
        { role: "assistant", content: null, refusal: "I can't." },
        { role: "user", content: "Why?" },
      ],
    });
    expect(writeRequestBody("anthropic-messages", chat).messages).toEqual([
      { role: "user", content: "Tell me." },
      { role: "assistant", content: [{ type: "text", text: "I can't." }] },
      { role: "user", content: "Why?" },
    ]);
  });

  it("leaves out what Messages cannot carry and names each omission with its reason", () => {
    const request = readRequest("openai-chat", {
      model: "m",
      seed: 7,
      metadata: { tenant: "t1" },
      response_format: { type: "json_object" },
      messages: [
        {
          role: "user",
          content: [{ type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } }],
        },
      ],
    });
    const { body, omitted } = writeRequest("anthropic-messages", request);
    expect(body).not.toHaveProperty("seed");
    expect(body).not.toHaveProperty("metadata");
    expect(JSON.stringify(body)).not.toContain("UklGRg==");
    expect(omitted.map((o) => o.subject).sort()).toEqual([
      "messages.audio",
      "metadata",
      "response-format.json-object",
      "sampling.seed",
    ]);
  });
});
