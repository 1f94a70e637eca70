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
  return readRequest("anthropic-messages", fixture(name).body);
}

describe("anthropic-messages request fixtures", () => {
  it.each(fixtures)("%s: writing what was read gives the body back", (name) => {
    const { body, written } = fixture(name);
    const again = writeRequestBody("anthropic-messages", readRequest("anthropic-messages", body));
    expect(stableStringify(again)).toBe(stableStringify(written ?? body));
  });

  it("basic: model, max_tokens, one user text", () => {
    const r = read("request-api-reference-basic.json");
    expect(r).toEqual({
      dialect: "anthropic-messages",
      model: "claude-sonnet-4-20250514",
      system: [],
      messages: [{ role: "user", parts: [{ type: "text", text: "Hello, world" }] }],
      tools: [],
      sampling: { maxTokens: 1024 },
      extras: {},
    });
  });

  it("tool use: input is stringified, results keep is_error, any + disable_parallel_tool_use", () => {
    const r = read("request-tool-use-guide-result-turn.json");
    expect(r.tools[0]).toMatchObject({ kind: "function", name: "get_weather" });
    expect(r.tools[0]?.schema).toMatchObject({ required: ["location"] });
    expect(r.messages[1]?.parts[1]).toEqual({
      type: "tool-call",
      id: "toolu_01A09q90qw90lq917835lq9",
      name: "get_weather",
      arguments: '{"location":"San Francisco, CA","unit":"celsius"}',
    });
    expect(r.messages[2]).toEqual({
      role: "user",
      parts: [
        {
          type: "tool-result",
          callId: "toolu_01A09q90qw90lq917835lq9",
          content: [{ type: "text", text: "15 degrees" }],
        },
        {
          type: "tool-result",
          callId: "toolu_01B",
          content: [
            {
              type: "text",
              text: "ConnectionError: the weather service API is not available (HTTP 500)",
            },
          ],
          isError: true,
        },
      ],
    });
    expect(r.toolChoice).toEqual({ mode: "required" });
    expect(r.parallelToolCalls).toBe(false);
  });

  it("vision: base64 and url images, url document", () => {
    const r = read("request-vision-guide.json");
    expect(r.messages[0]?.parts).toEqual([
      {
        type: "image",
        source: { kind: "base64", mediaType: "image/jpeg", data: "/9j/4AAQSkZJRg==" },
      },
      {
        type: "image",
        source: {
          kind: "url",
          url: "https://upload.wikimedia.org/wikipedia/commons/a/a7/Camponotus_flavomarginatus_ant.jpg",
        },
      },
      {
        type: "document",
        source: {
          kind: "url",
          url: "https://assets.anthropic.com/m/1cd9d098ac3e6467/original/Claude-3-Model-Card-October-Addendum.pdf",
        },
      },
      { type: "text", text: "Describe these." },
    ]);
  });

  it("prompt caching: system blocks keep their cache markers with ttl", () => {
    const r = read("request-prompt-caching-guide.json");
    expect(r.system).toHaveLength(2);
    expect(r.system[0]).not.toHaveProperty("cache");
    expect(r.system[1]).toEqual({
      type: "text",
      text: "<the entire contents of 'Pride and Prejudice'>",
      cache: { type: "ephemeral", ttl: "1h", raw: { type: "ephemeral", ttl: "1h" } },
    });
  });

  it("extended thinking: budget, thinking with signature, redacted thinking", () => {
    const r = read("request-extended-thinking-guide.json");
    expect(r.reasoning).toEqual({ mode: "enabled", budgetTokens: 10000 });
    const [thinking, redacted, text] = r.messages[1]?.parts ?? [];
    expect(thinking).toEqual({
      type: "thinking",
      text: "Let me analyze this step by step...",
      signature:
        "WaUjzkypQ2mUEVM36O2TxuC06KN8xyfbJwyem2dw3URve/op91XWHOEBLLqIOMfFG/UvLEczmEsUjavL....",
    });
    expect(redacted).toMatchObject({ type: "thinking", text: "", redacted: true });
    expect(redacted).toHaveProperty("signature", expect.stringMatching(/^EmwKAhgB/));
    expect(text).toEqual({
      type: "text",
      text: "Yes, there are infinitely many prime numbers such that...",
    });
  });

  it("all parameters: each mapped to its canonical field, the rest raw", () => {
    const r = read("request-api-reference-all-parameters.json");
    expect(r.system).toEqual([{ type: "text", text: "You are a weather bot." }]);
    // The API reference's own text-source document is a document (issue 20 §2).
    expect(r.messages[0]?.parts[0]).toEqual({
      type: "document",
      source: {
        kind: "text",
        mediaType: "text/plain",
        data: "The grass is green. The sky is blue.",
      },
      title: "My Document",
    });
    expect(r.messages[0]?.parts[1]).toEqual({
      type: "text",
      text: "What color is the grass?",
      cache: { type: "ephemeral", raw: { type: "ephemeral" } },
    });
    expect(r.tools[0]).toMatchObject({
      kind: "function",
      strict: true,
      cache: { type: "ephemeral" },
    });
    expect(r.tools[1]).toEqual({
      kind: "web_search_20250305",
      name: "web_search",
      extras: { max_uses: 5 },
    });
    expect(r.toolChoice).toEqual({ mode: "tool", name: "get_weather" });
    expect(r.parallelToolCalls).toBe(true);
    expect(r.sampling).toEqual({
      temperature: 0.3,
      topP: 0.9,
      topK: 40,
      maxTokens: 2048,
      stop: ["STOPPROBE"],
    });
    expect(r.user).toBe("13803d75-b4b5-4c3e-b2a2-6f21399b021b");
    expect(r.metadata).toBeUndefined();
    expect(r.stream).toBe(true);
    expect(r.serviceTier).toBe("standard_only");
    expect(r.reasoning).toEqual({ effort: "medium" });
    expect(r.responseFormat).toMatchObject({ type: "json_schema", schema: { type: "object" } });
    expect(r.cache).toEqual({ type: "ephemeral", raw: { type: "ephemeral" } });
    expect(r.extras).toEqual({ container: "container_011CQUeFzdf4ERyYDeH8ECUC" });
  });

  it("tool_result content blocks, an empty tool_result, an empty input, tool_choice none", () => {
    const r = read("request-tool-result-content-blocks.json");
    expect(r.messages[1]?.parts[1]).toEqual({
      type: "tool-call",
      id: "toolu_01B",
      name: "get_time",
      arguments: "{}",
    });
    expect(r.messages[2]?.parts).toEqual([
      {
        type: "tool-result",
        callId: "toolu_01A09q90qw90lq917835lq9",
        content: [
          { type: "text", text: "15 degrees" },
          {
            type: "image",
            source: { kind: "base64", mediaType: "image/jpeg", data: "/9j/4AAQSkZJRg==" },
          },
        ],
      },
      { type: "tool-result", callId: "toolu_01B", content: [] },
    ]);
    expect(r.toolChoice).toEqual({ mode: "none" });
    expect(r.parallelToolCalls).toBeUndefined();
  });

  it("adaptive thinking and the older output_format", () => {
    const r = read("request-adaptive-thinking-output-format.json");
    expect(r.reasoning).toEqual({ mode: "adaptive" });
    expect(r.responseFormat?.type).toBe("json_schema");
    expect(r.extras).toEqual({});
  });
});

describe("anthropic-messages odd shapes are kept, never lost", () => {
  it("keeps a stop_sequences string (not the array the API takes) raw, never as a stop", () => {
    // Portkey 1.15.2 forwards Chat "stop":"STOPPROBE" so; the lens reads it from extras as a
    // value present in the wrong shape (probes/lens/backend-keys.ts).
    const r = readRequest("anthropic-messages", { stop_sequences: "STOPPROBE" });
    expect(r.sampling.stop).toBeUndefined();
    expect(r.extras).toEqual({ stop_sequences: "STOPPROBE" });
  });

  it("unknown block types and unknown thinking types stay raw", () => {
    const body = {
      messages: [
        {
          role: "user",
          content: [{ type: "search_result", source: "s", title: "t", content: [] }],
        },
      ],
      thinking: { type: "turbo" },
      tool_choice: { type: "sometimes" },
      metadata: { user_id: "u", tenant: "t" },
    };
    const r = readRequest("anthropic-messages", body);
    expect(r.messages[0]?.parts[0]?.type).toBe("unknown");
    expect(r.reasoning).toBeUndefined();
    expect(r.toolChoice).toBeUndefined();
    expect(r.user).toBe("u");
    expect(r.extras).toEqual({
      thinking: { type: "turbo" },
      tool_choice: { type: "sometimes" },
      metadata: { tenant: "t" },
    });
    expect(writeRequestBody("anthropic-messages", r)).toEqual(body);
  });

  it("a document with citations and context stays typed; the raw content is kept beside it", () => {
    const content = [
      {
        type: "document",
        source: { type: "url", url: "https://example.com/a.pdf" },
        title: "A",
        context: "trusted",
        citations: { enabled: true },
      },
      { type: "text", text: "Summarize." },
    ];
    const body = { messages: [{ role: "user", content }] };
    const r = readRequest("anthropic-messages", body);
    expect(r.messages[0]?.parts[0]).toEqual({
      type: "document",
      source: { kind: "url", url: "https://example.com/a.pdf" },
      title: "A",
    });
    expect(r.messages[0]?.extras).toEqual({ content });
    expect(writeRequestBody("anthropic-messages", r)).toEqual(body);
    expect(writeRequestBody("openai-chat", r).messages).toEqual([
      { role: "user", content: "Summarize." },
    ]);
  });
});
