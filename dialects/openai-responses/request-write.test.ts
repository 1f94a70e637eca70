import { describe, expect, it } from "vitest";
import type { CanonicalRequest } from "../canonical.ts";
import { readRequest, writeRequest, writeRequestBody } from "../request.ts";

/** Every field the Responses dialect can carry, once. */
const rich: CanonicalRequest = {
  dialect: "openai-responses",
  model: "gpt-5",
  system: [{ type: "text", text: "Be brief." }],
  messages: [
    { role: "developer", parts: [{ type: "text", text: "French only." }] },
    {
      role: "user",
      parts: [
        { type: "text", text: "Look:" },
        { type: "image", source: { kind: "file-id", fileId: "file-1" }, detail: "auto" },
        { type: "image", source: { kind: "url", url: "https://example.com/a.png" } },
        { type: "document", source: { kind: "base64", data: "JVBERi0=" }, title: "a.pdf" },
        { type: "audio", source: { kind: "base64", data: "UklGRg==" }, format: "wav" },
      ],
      extras: { type: "message" },
    },
    {
      role: "assistant",
      parts: [
        { type: "reasoning", text: "step one" },
        { type: "thinking", text: "raw reasoning" },
        { type: "thinking", text: "", signature: "enc", redacted: true },
      ],
      extras: { type: "reasoning", id: "rs_1" },
    },
    {
      role: "assistant",
      parts: [
        { type: "text", text: "Answer", extras: { annotations: [] } },
        { type: "refusal", text: "not that" },
      ],
      extras: { type: "message", id: "msg_1", status: "completed" },
    },
    {
      role: "assistant",
      parts: [
        { type: "tool-call", id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
      ],
      extras: { id: "fc_1", status: "completed" },
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
            { type: "text", text: "see" },
            { type: "image", source: { kind: "url", url: "https://example.com/b.png" } },
          ],
        },
      ],
    },
  ],
  tools: [
    {
      kind: "function",
      name: "get_weather",
      description: "Weather",
      schema: { type: "object" },
      strict: true,
    },
    { kind: "file_search", name: "", extras: { vector_store_ids: ["vs_1"] } },
  ],
  toolChoice: { mode: "none" },
  parallelToolCalls: true,
  sampling: { temperature: 0.3, topP: 0.9, maxTokens: 800 },
  responseFormat: { type: "json_object" },
  reasoning: { effort: "minimal", summary: "detailed" },
  metadata: { run: "r1" },
  user: "u1",
  stream: false,
  serviceTier: "priority",
  store: true,
  verbosity: "high",
  extras: { include: ["reasoning.encrypted_content"] },
};

describe("openai-responses writer", () => {
  it("round trip: read(write(x)) equals x for a rich request", () => {
    expect(readRequest("openai-responses", writeRequestBody("openai-responses", rich))).toEqual(
      rich,
    );
  });

  it("from Chat: an assistant turn splits into message and function_call items", () => {
    const chat = readRequest("openai-chat", {
      messages: [
        { role: "system", content: "sys" },
        {
          role: "assistant",
          content: "Checking.",
          tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c1", content: "ok" },
      ],
      max_tokens: 5,
      stop: ["x"],
    });
    expect(writeRequestBody("openai-responses", chat)).toEqual({
      input: [
        { role: "system", content: "sys" },
        { role: "assistant", content: "Checking." },
        { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: "ok" },
      ],
      max_output_tokens: 5,
    });
  });

  it("writes Anthropic adaptive and disabled thinking as reasoning.effort levels", () => {
    const thinking = (type: string) =>
      readRequest("anthropic-messages", {
        model: "m",
        max_tokens: 10,
        messages: [{ role: "user", content: "hi" }],
        thinking: { type },
      });
    expect(writeRequestBody("openai-responses", thinking("adaptive")).reasoning).toEqual({
      effort: "medium",
    });
    expect(writeRequestBody("openai-responses", thinking("disabled")).reasoning).toEqual({
      effort: "none",
    });
  });

  it("leaves out what Responses cannot carry and names each omission with its reason", () => {
    const request = readRequest("openai-chat", {
      model: "m",
      stop: ["END"],
      seed: 7,
      n: 2,
      messages: [{ role: "user", content: "hi" }],
    });
    const { body, omitted } = writeRequest("openai-responses", request);
    expect(body).not.toHaveProperty("stop");
    expect(body).not.toHaveProperty("seed");
    expect(body).not.toHaveProperty("n");
    expect(omitted.map((o) => o.subject).sort()).toEqual([
      "sampling.n",
      "sampling.seed",
      "sampling.stop",
    ]);
    expect(omitted.find((o) => o.subject === "sampling.stop")?.reason).toBe(
      "Responses has no stop",
    );
  });

  it("reads a named custom tool's tool_choice and writes it back in its own form", () => {
    const body = {
      model: "m",
      input: "Hi",
      tools: [{ type: "custom", name: "code_exec", description: "Runs code" }],
      tool_choice: { type: "custom", name: "code_exec" },
    };
    const read = readRequest("openai-responses", body);
    expect(read.toolChoice).toEqual({ mode: "tool", name: "code_exec" });
    expect(writeRequestBody("openai-responses", read)).toEqual(body);
  });
});
