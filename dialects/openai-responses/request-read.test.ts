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
  return readRequest("openai-responses", fixture(name).body);
}

describe("openai-responses request fixtures", () => {
  it.each(fixtures)("%s: writing what was read gives the body back", (name) => {
    const { body, written } = fixture(name);
    const again = writeRequestBody("openai-responses", readRequest("openai-responses", body));
    expect(stableStringify(again)).toBe(stableStringify(written ?? body));
  });

  it("text input: a string input is one user text message", () => {
    const r = read("request-api-reference-text-input.json");
    expect(r.messages).toEqual([
      {
        role: "user",
        parts: [{ type: "text", text: "Tell me a three sentence bedtime story about a unicorn." }],
      },
    ]);
    expect(r.extras).toEqual({});
  });

  it("image input: input_text and input_image parts", () => {
    const r = read("request-api-reference-image-input.json");
    expect(r.messages[0]?.parts).toEqual([
      { type: "text", text: "what is in this image?" },
      {
        type: "image",
        source: {
          kind: "url",
          url: "https://upload.wikimedia.org/wikipedia/commons/thumb/d/dd/Gfp-wisconsin-madison-the-nature-boardwalk.jpg/2560px-Gfp-wisconsin-madison-the-nature-boardwalk.jpg",
        },
      },
    ]);
  });

  it("web search: a built-in tool keeps its type", () => {
    const r = read("request-api-reference-web-search.json");
    expect(r.tools).toEqual([{ kind: "web_search_preview", name: "" }]);
  });

  it("tool turn: one message per item, item ids and status kept", () => {
    const r = read("request-function-calling-guide-tool-turn.json");
    expect(r.system).toEqual([{ type: "text", text: "You are a weather assistant." }]);
    expect(r.messages[1]).toEqual({
      role: "assistant",
      parts: [
        {
          type: "tool-call",
          id: "call_12345xyz",
          name: "get_weather",
          arguments: '{"location":"Paris, France"}',
        },
      ],
      extras: { id: "fc_12345xyz", status: "completed" },
    });
    expect(r.messages[2]).toEqual({
      role: "tool",
      parts: [
        {
          type: "tool-result",
          callId: "call_12345xyz",
          content: [{ type: "text", text: '{"temperature": 14}' }],
        },
      ],
    });
    expect(r.tools[0]).toMatchObject({ kind: "function", name: "get_weather", strict: true });
    expect(r.toolChoice).toEqual({ mode: "tool", name: "get_weather" });
    expect(r.parallelToolCalls).toBe(false);
  });

  it("reasoning: effort and summary, reasoning item as summary + encrypted thinking", () => {
    const r = read("request-reasoning-guide-encrypted.json");
    expect(r.reasoning).toEqual({ effort: "medium", summary: "auto" });
    expect(r.sampling.maxTokens).toBe(5000);
    expect(r.messages[1]).toEqual({
      role: "assistant",
      parts: [
        { type: "reasoning", text: "**Planning the transpose**\n\nI will read rows into arrays." },
        {
          type: "thinking",
          text: "",
          signature: "gAAAAABoISQ24OyVRYbkYfukHfSBtTQ9jp",
          redacted: true,
        },
      ],
      extras: { type: "reasoning", id: "rs_6820f383d7c08191846711c5df8233bc" },
    });
    expect(r.messages[2]?.parts).toEqual([
      { type: "text", text: "Here is a script.", extras: { annotations: [] } },
    ]);
    expect(r.messages[2]?.extras).toEqual({
      type: "message",
      id: "msg_6820f3877ab4819193a0e4e5e1e8c3a2",
      status: "completed",
    });
    expect(r.store).toBe(false);
    expect(r.extras).toEqual({ include: ["reasoning.encrypted_content"] });
  });

  it("structured outputs: text.format, with its description kept raw, and text.verbosity", () => {
    const r = read("request-structured-outputs-guide.json");
    expect(r.responseFormat).toMatchObject({
      type: "json_schema",
      name: "calendar_event",
      strict: true,
    });
    expect(r.messages[0]).toEqual({
      role: "system",
      parts: [{ type: "text", text: "Extract the event information." }],
    });
    expect(r.sampling).toEqual({ temperature: 0.3, topP: 0.9 });
    expect(r.metadata).toEqual({ probe: "p1" });
    expect(r.user).toBe("user-1234");
    expect(r.stream).toBe(true);
    expect(r.serviceTier).toBe("flex");
    expect(r.verbosity).toBe("low");
    expect(r.extras).toEqual({
      text: { format: { description: "A calendar event" } },
      truncation: "auto",
      previous_response_id: "resp_123",
    });
  });

  it("files: file_url, file_id, file_data and a data-URL image with detail", () => {
    const r = read("request-file-inputs-guide.json");
    expect(r.messages[0]?.parts.slice(0, 4)).toEqual([
      {
        type: "document",
        source: { kind: "url", url: "https://www.berkshirehathaway.com/letters/2024ltr.pdf" },
      },
      { type: "document", source: { kind: "file-id", fileId: "file-6F2ksmvXxt4VdoqmHRw6kL" } },
      {
        type: "document",
        source: { kind: "base64", mediaType: "application/pdf", data: "JVBERi0xLjQK" },
        title: "draconomicon.pdf",
      },
      {
        type: "image",
        source: { kind: "base64", mediaType: "image/jpeg", data: "/9j/4AAQ" },
        detail: "high",
      },
    ]);
  });
});

describe("openai-responses odd shapes are kept, never lost", () => {
  it("unknown items, unknown tool_choice shapes and odd reasoning items stay raw", () => {
    const body = {
      input: [
        { type: "item_reference", id: "msg_1" },
        { type: "web_search_call", id: "ws_1", status: "completed" },
        { type: "reasoning", id: "rs_1", summary: [{ type: "other", text: "x" }] },
        { type: "reasoning", id: "rs_2", summary: [] },
      ],
      tool_choice: { type: "allowed_tools", mode: "auto", tools: [] },
      reasoning: {},
    };
    const r = readRequest("openai-responses", body);
    expect(r.messages.map((m) => m.parts[0]?.type)).toEqual([
      "unknown",
      "unknown",
      "unknown",
      undefined,
    ]);
    expect(r.messages[3]).toEqual({
      role: "assistant",
      parts: [],
      extras: { type: "reasoning", id: "rs_2" },
    });
    expect(r.extras).toEqual({ tool_choice: body.tool_choice, reasoning: {} });
    expect(writeRequestBody("openai-responses", r)).toEqual(body);
  });
});
