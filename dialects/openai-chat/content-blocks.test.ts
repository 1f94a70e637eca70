/**
 * Portkey's `content_blocks` (the client opted out of strict OpenAI compliance) read as a
 * thinking carrier, in a reply and in a stream; the shapes are Portkey 1.15.2's, as recorded in
 * probes/lens/fixtures/real/portkey-*-strict-compliance-off-*.json.
 */
import { describe, expect, it } from "vitest";
import { readReply } from "../reply.ts";

const message = (extra: Record<string, unknown>) =>
  JSON.stringify({
    id: "x",
    object: "chat.completion",
    model: "m",
    choices: [{ index: 0, message: { role: "assistant", content: "Answer.", ...extra } }],
  });
const nonStream = (body: string) =>
  readReply("openai-chat", { status: 200, body }, "non-stream").parts;

describe("Portkey's content_blocks", () => {
  it("reads an Anthropic thinking block with its signature, and redacted thinking", () => {
    const blocks = [
      { type: "thinking", thinking: "THINK", signature: "SIG==" },
      { type: "redacted_thinking", data: "OPAQUE" },
      { type: "text", text: "Answer." },
    ];
    expect(nonStream(message({ content_blocks: blocks }))).toEqual([
      { type: "thinking", text: "THINK", signature: "SIG==" },
      { type: "thinking", text: "", signature: "OPAQUE", redacted: true },
      { type: "text", text: "Answer." },
    ]);
  });

  it("reads Gemini's indexed thought deltas, and reads reasoning_content only without them", () => {
    const blocks = [
      { index: 0, delta: { thinking: "TH" } },
      { index: 0, delta: { thinking: "INK" } },
      { index: 1, delta: { text: "Answer." } },
    ];
    expect(nonStream(message({ content_blocks: blocks, reasoning_content: "TH INK" }))).toEqual([
      { type: "thinking", text: "THINK" },
      { type: "text", text: "Answer." },
    ]);
    const textOnly = message({ content_blocks: [{ type: "text", text: "Answer." }] });
    expect(nonStream(textOnly)).toEqual([{ type: "text", text: "Answer." }]);
  });

  it("assembles a stream's thinking and signature fragments by block index", () => {
    const chunk = (delta: Record<string, unknown>) =>
      `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", choices: [{ index: 0, delta }] })}\n\n`;
    const body =
      chunk({ content: "", role: "assistant" }) +
      chunk({ content_blocks: [{ index: 0, delta: { thinking: "", signature: "" } }] }) +
      chunk({ content_blocks: [{ index: 0, delta: { thinking: "THINK" } }] }) +
      chunk({ content_blocks: [{ index: 0, delta: { signature: "SIG==" } }] }) +
      chunk({ content: "Answer.", content_blocks: [{ index: 1, delta: { text: "Answer." } }] }) +
      "data: [DONE]\n\n";
    const got = readReply("openai-chat", { status: 200, body }, "stream");
    expect(got.parts).toEqual([
      { type: "thinking", text: "THINK", signature: "SIG==" },
      { type: "text", text: "Answer." },
    ]);
  });
});
