import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CanonicalRequest, ToolChoice } from "./canonical.ts";
import type { Dialect } from "./dialect.ts";
import { readRequest, requestPath, writeRequestBody } from "./request.ts";
import { toolChoiceMeaning } from "./tool-choice.ts";

function fixture(dialect: Dialect, name: string): CanonicalRequest {
  const url = new URL(`./${dialect}/fixtures/${name}`, import.meta.url);
  return readRequest(dialect, JSON.parse(readFileSync(url, "utf8")).body);
}

/** The tool choice as `target` writes it, and as it reads back. */
function across(target: Dialect, request: CanonicalRequest) {
  const body = writeRequestBody(target, request);
  const back = readRequest(target, body, { path: requestPath(target, request) });
  return { body, back: back.toolChoice };
}

const responsesAuto = () =>
  fixture("openai-responses", "request-function-calling-allowed-tools.json");
const chatRequired = () => fixture("openai-chat", "request-allowed-tools-required.json");

describe("allowed tools (a subset of the tools the model may call)", () => {
  it("reads the Responses and Chat spellings into one canonical choice", () => {
    expect(responsesAuto().toolChoice).toEqual({
      mode: "allowed",
      within: "auto",
      names: ["get_weather", "get_time"],
    });
    expect(chatRequired().toolChoice).toEqual({
      mode: "allowed",
      within: "required",
      names: ["get_time"],
    });
    expect(responsesAuto().extras).toEqual({});
  });

  it("writes Chat's allowed_tools from a Responses request, and back", () => {
    const { body, back } = across("openai-chat", responsesAuto());
    expect(body.tool_choice).toEqual({
      type: "allowed_tools",
      allowed_tools: {
        mode: "auto",
        tools: [
          { type: "function", function: { name: "get_weather" } },
          { type: "function", function: { name: "get_time" } },
        ],
      },
    });
    expect(back).toEqual(responsesAuto().toolChoice);
  });

  it("writes Responses' allowed_tools from a Chat request", () => {
    const { body, back } = across("openai-responses", chatRequired());
    expect(body.tool_choice).toEqual({
      type: "allowed_tools",
      mode: "required",
      tools: [{ type: "function", name: "get_time" }],
    });
    expect(back).toEqual(chatRequired().toolChoice);
  });

  it("writes Gemini's allowedFunctionNames: VALIDATED for auto, ANY for required", () => {
    const auto = across("gemini", responsesAuto());
    expect(auto.body.toolConfig).toEqual({
      functionCallingConfig: {
        mode: "VALIDATED",
        allowedFunctionNames: ["get_weather", "get_time"],
      },
    });
    expect(auto.back).toEqual(responsesAuto().toolChoice);
    const required = across("gemini", chatRequired());
    expect(required.body.toolConfig).toEqual({
      functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_time"] },
    });
    // One name under ANY reads as that tool forced: the same meaning.
    expect(required.back).toEqual({ mode: "tool", name: "get_time" });
    expect(toolChoiceMeaning(chatRequired().toolChoice as ToolChoice)).toEqual(required.back);
  });

  it("writes one required tool to Anthropic as that tool forced, and leaves a wider set out", () => {
    expect(across("anthropic-messages", chatRequired()).body.tool_choice).toEqual({
      type: "tool",
      name: "get_time",
    });
    const wide = across("anthropic-messages", responsesAuto());
    expect(wide.body.tool_choice).toBeUndefined();
    // Ollama has no tool_choice at all.
    expect(across("ollama", responsesAuto()).body.tool_choice).toBeUndefined();
  });

  it("means the same whatever the order of the set; an empty set stays raw", () => {
    const a: ToolChoice = { mode: "allowed", within: "auto", names: ["b", "a", "b"] };
    expect(toolChoiceMeaning(a)).toEqual({ mode: "allowed", within: "auto", names: ["a", "b"] });
    const empty = { type: "allowed_tools", mode: "auto", tools: [] };
    const read = readRequest("openai-responses", { tool_choice: empty });
    expect(read.toolChoice).toBeUndefined();
    expect(read.extras).toEqual({ tool_choice: empty });
  });
});
