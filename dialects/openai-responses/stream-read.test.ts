import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readReply } from "../reply.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const read = (body: string) => readReply("openai-responses", { status: 200, body }, "stream");

describe("openai-responses stream reader", () => {
  it("reads a captured function-call stream", () => {
    const got = read(fixture("stream-tool-call.sse"));
    expect(got.id).toBe("resp_0775572d10a16b66006a8d85285ef487d2ae865d3657af7276");
    expect(got.parts).toEqual([
      {
        type: "tool-call",
        id: "call_2FQdm3Br7Qb35YUBSkDR7kue",
        name: "get_weather",
        arguments: '{"city":"Beijing"}',
      },
    ]);
    expect(got.stopReason).toBe("tool_calls");
    expect(got.usage).toEqual({
      inputTokens: 45,
      outputTokens: 25,
      totalTokens: 70,
      cacheReadTokens: 0,
      reasoningTokens: 0,
    });
    expect(got.stream).toEqual({
      complete: true,
      terminalEvent: "response.completed",
      events: 12,
      malformed: [],
      orphanFragments: 0,
    });
  });

  it("flags a gap in sequence_number (an event lost in between)", () => {
    const events = fixture("stream-tool-call.sse").split("\n\n");
    const withoutOne = [...events.slice(0, 5), ...events.slice(6)].join("\n\n");
    const got = read(withoutOne);
    expect(got.stream?.malformed).toEqual(["event 6: sequence_number 6 after 4"]);
    // The lost fragment shows in the arguments; the done event does not paper over it.
    expect(got.parts[0]).toMatchObject({ arguments: '{"cityBeijing"}' });
  });

  it("is incomplete without response.completed", () => {
    const events = fixture("stream-tool-call.sse").split("\n\n");
    const got = read(events.slice(0, -2).join("\n\n"));
    expect(got.stream?.complete).toBe(false);
    expect(got.stopReason).toBeUndefined();
  });

  it("takes message text from output_item.done when no delta carried it", () => {
    const ev = (n: number, type: string, body: Record<string, unknown>) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...body, sequence_number: n })}\n\n`;
    const item = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "whole", annotations: [] }],
    };
    const body =
      ev(0, "response.output_item.added", { output_index: 0, item: { ...item, content: [] } }) +
      ev(1, "response.output_item.done", { output_index: 0, item }) +
      ev(2, "response.completed", {
        response: { id: "resp_1", status: "completed", output: [item] },
      });
    const got = read(body);
    expect(got.parts).toEqual([{ type: "text", text: "whole" }]);
    expect(got.stopReason).toBe("stop");
  });
});
