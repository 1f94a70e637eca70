/**
 * Readers tolerate unknown sibling keys (issue 20 §2): one key more beside a structure's own
 * does not void it. The structure is read, the key kept as its `extras` and written back to
 * the same dialect (`withExtras`, `writtenWithExtras` in request-fields.ts). Representative
 * structures per dialect; each was an `unknown` part (or no format at all) before.
 */
import { describe, expect, it } from "vitest";
import type { Dialect } from "./dialect.ts";
import { readRequest, writeRequestBody } from "./request.ts";

const X = { x_gateway_hint: "added" };

function firstPart(dialect: Dialect, body: Record<string, unknown>, message = 0, part = 0) {
  return readRequest(dialect, body).messages[message]?.parts[part];
}

describe("a key beside a structure's own keys", () => {
  it("Anthropic: a tool_use block, a document, a thinking block, an output format", () => {
    const toolUse = { type: "tool_use", id: "toolu_1", name: "f", input: { a: 1 }, ...X };
    const body = {
      model: "m",
      max_tokens: 16,
      messages: [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: [{ type: "thinking", thinking: "t", signature: "s", ...X }, toolUse],
        },
      ],
      output_config: { format: { type: "json_schema", schema: { type: "object" }, name: "out" } },
    };
    const read = readRequest("anthropic-messages", body);
    expect(read.messages[1]?.parts).toEqual([
      { type: "thinking", text: "t", signature: "s", extras: X },
      { type: "tool-call", id: "toolu_1", name: "f", arguments: '{"a":1}', extras: X },
    ]);
    expect(read.responseFormat).toEqual({
      type: "json_schema",
      schema: { type: "object" },
      extras: { name: "out" },
    });
    const written = writeRequestBody("anthropic-messages", read) as {
      messages: { content: unknown }[];
      output_config?: unknown;
    };
    expect(written.output_config).toEqual(body.output_config);
    expect(written.messages[1]?.content).toEqual([
      { type: "thinking", thinking: "t", signature: "s", ...X },
      toolUse,
    ]);
  });

  it("Chat: a refusal part and a file part", () => {
    const file = { type: "file", file: { file_id: "file-1" }, ...X };
    const body = {
      model: "m",
      messages: [
        { role: "user", content: [file] },
        { role: "assistant", content: [{ type: "refusal", refusal: "no", ...X }] },
      ],
    };
    expect(firstPart("openai-chat", body)).toEqual({
      type: "document",
      source: { kind: "file-id", fileId: "file-1" },
      extras: X,
    });
    expect(firstPart("openai-chat", body, 1)).toEqual({ type: "refusal", text: "no", extras: X });
    const written = writeRequestBody("openai-chat", readRequest("openai-chat", body)) as {
      messages: { content: unknown }[];
    };
    expect(written.messages[0]?.content).toEqual([file]);
  });

  it("Responses: an input_image and an input_file", () => {
    const image = { type: "input_image", image_url: "https://example.com/a.png", ...X };
    const file = { type: "input_file", file_id: "file-1", ...X };
    const body = { model: "m", input: [{ role: "user", content: [image, file] }] };
    expect(readRequest("openai-responses", body).messages[0]?.parts).toEqual([
      { type: "image", source: { kind: "url", url: "https://example.com/a.png" }, extras: X },
      { type: "document", source: { kind: "file-id", fileId: "file-1" }, extras: X },
    ]);
  });

  it("Gemini: a functionCall part and an inlineData part", () => {
    const call = { functionCall: { name: "f", args: { a: 1 } }, ...X };
    const blob = { inlineData: { mimeType: "image/png", data: "AAAA" }, ...X };
    const body = {
      contents: [
        { role: "user", parts: [blob] },
        { role: "model", parts: [call] },
      ],
    };
    expect(firstPart("gemini", body)).toEqual({
      type: "image",
      source: { kind: "base64", mediaType: "image/png", data: "AAAA" },
      extras: X,
    });
    expect(firstPart("gemini", body, 1)).toEqual({
      type: "tool-call",
      id: "",
      name: "f",
      arguments: '{"a":1}',
      extras: X,
    });
  });

  it("Chat and Responses: an output format", () => {
    const chat = { model: "m", messages: [], response_format: { type: "json_object", ...X } };
    expect(readRequest("openai-chat", chat).responseFormat).toEqual({
      type: "json_object",
      extras: X,
    });
    const schema = { name: "out", schema: { type: "object" } };
    const named = {
      model: "m",
      messages: [],
      response_format: { type: "json_schema", json_schema: schema, ...X },
    };
    expect(readRequest("openai-chat", named).responseFormat).toEqual({
      type: "json_schema",
      name: "out",
      schema: { type: "object" },
      extras: X,
    });
    const responses = { model: "m", input: "hi", text: { format: { type: "json_object", ...X } } };
    expect(readRequest("openai-responses", responses).responseFormat).toEqual({
      type: "json_object",
      extras: X,
    });
    // Written back to the dialect they were read from, the keys come back.
    const again = (dialect: Dialect, body: Record<string, unknown>) =>
      writeRequestBody(dialect, readRequest(dialect, body));
    expect(again("openai-chat", chat).response_format).toEqual(chat.response_format);
    expect(again("openai-responses", responses).text).toEqual(responses.text);
  });
});
