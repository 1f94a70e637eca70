/**
 * A key a gateway wrote beside a structure (issue 20 §2, readers tolerate unknown sibling keys):
 * the structure is judged as read, the key as an addition, `invented (part-keys-added)`; a key
 * the client itself sent there is no addition.
 */
import { describe, expect, it } from "vitest";
import { parseExchange } from "../exchange.ts";
import { judgeExchange } from "./judge-exchange.ts";

const schema = { type: "object", properties: { a: { type: "string" } } };

function judged(client: unknown, forwarded: unknown) {
  return judgeExchange(
    parseExchange({
      route: { client: "openai-chat", backend: "anthropic-messages" },
      mode: "non-stream",
      clientRequest: { path: "/v1/chat/completions", body: client },
      forwarded: [{ path: "/v1/messages", body: forwarded }],
    }),
  )
    .filter((v) => v.subject === "response-format" || v.subject === "messages.tool-call")
    .map((v) => `${v.subject} ${v.verdict}${v.cause ? `/${v.cause}` : ""}`);
}

describe("a key beside a structure in the forwarded request", () => {
  const chat = {
    model: "m",
    messages: [{ role: "user", content: "hi" }],
    response_format: { type: "json_schema", json_schema: { name: "out", schema } },
  };
  const anthropic = {
    model: "m",
    max_tokens: 16,
    messages: [{ role: "user", content: "hi" }],
    output_config: { format: { type: "json_schema", schema } },
  };

  it("reads an Anthropic output format with Chat's name as the format, the name an addition", () => {
    expect(judged(chat, anthropic)).toEqual(["response-format preserved"]);
    const withName = {
      ...anthropic,
      output_config: { format: { type: "json_schema", schema, name: "out" } },
    };
    expect(judged(chat, withName)).toEqual([
      "response-format preserved",
      "response-format invented/part-keys-added",
    ]);
  });

  it("reads a tool_use block with a stray key as the call, the key an addition", () => {
    const call = {
      id: "call_1",
      type: "function",
      function: { name: "f", arguments: '{"a":"x"}' },
    };
    const history = {
      model: "m",
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: null, tool_calls: [call] },
        { role: "tool", tool_call_id: "call_1", content: "ok" },
      ],
    };
    const toolUse = { type: "tool_use", id: "call_1", name: "f", input: { a: "x" } };
    const forwarded = (block: object) => ({
      model: "m",
      max_tokens: 16,
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: [block] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: "ok" }] },
      ],
    });
    expect(judged(history, forwarded(toolUse))).toEqual(["messages.tool-call preserved"]);
    expect(judged(history, forwarded({ ...toolUse, index: 0 }))).toEqual([
      "messages.tool-call preserved",
      "messages.tool-call invented/part-keys-added",
    ]);
  });
});
