import { describe, expect, it } from "vitest";
import type { CanonicalReply } from "./canonical.ts";
import { DialectError } from "./dialect-error.ts";
import { encodeEvents, readReply, writeReplyEvents } from "./reply.ts";
import { parseStreamPlan } from "./stream-plan.ts";

const reply: CanonicalReply = {
  dialect: "openai-chat",
  id: "r1",
  model: "m",
  parts: [
    { type: "text", text: "Hello there" },
    { type: "tool-call", id: "call_1", name: "f", arguments: '{"a":1}' },
    { type: "tool-call", id: "call_2", name: "g", arguments: '{"b":22}' },
  ],
  stopReason: "tool_calls",
  usage: { inputTokens: 10, outputTokens: 5 },
  extras: {},
};
const json = (data: string) => JSON.parse(data) as Record<string, unknown>;

describe("stream plan", () => {
  it("names the path and what was expected when a staged plan is wrong", () => {
    expect(() => parseStreamPlan({ textChunkSize: 0 }, "stage.json")).toThrow(
      /^stage\.json: textChunkSize: /,
    );
    expect(() => parseStreamPlan({ pingsAfter: ["x"] }, "stage.json")).toThrow(/pingsAfter\.0/);
    expect(() => parseStreamPlan({ typo: true })).toThrow(DialectError);
  });

  it("cuts text into the given chunks, and refuses chunks that do not join to the text", () => {
    const events = writeReplyEvents("openai-chat", reply, {
      textChunks: [["Hel", "lo the", "re"]],
    });
    const contents = events.flatMap((e) => {
      const d = e.data.startsWith("{") ? json(e.data) : {};
      const delta = (d.choices as { delta?: { content?: string } }[] | undefined)?.[0]?.delta;
      return delta?.content ? [delta.content] : [];
    });
    expect(contents).toEqual(["Hel", "lo the", "re"]);
    expect(() => writeReplyEvents("openai-chat", reply, { textChunks: [["Hello"]] })).toThrow(
      /text 0: chunks join to "Hello", the reply says "Hello there"/,
    );
  });

  it("interleaves the argument fragments of parallel calls", () => {
    const events = writeReplyEvents("anthropic-messages", reply, {
      toolArgumentChunks: [
        ['{"a"', ":1}"],
        ['{"b"', ":22}"],
      ],
      interleaveToolCalls: true,
    });
    const fragments = events
      .map((e) => json(e.data))
      .flatMap((d) => {
        const delta = d.delta as { type?: string; partial_json?: string } | undefined;
        return delta?.type === "input_json_delta" ? [`${d.index}:${delta.partial_json}`] : [];
      });
    expect(fragments).toEqual(['1:{"a"', '2:{"b"', "1::1}", "2::22}"]);
  });

  it("ends OpenAI Chat with a usage chunk with empty choices, then [DONE]", () => {
    const events = writeReplyEvents("openai-chat", reply);
    expect(events.at(-1)).toEqual({ data: "[DONE]" });
    const usage = json(events.at(-2)?.data ?? "");
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    expect(json(events[0]?.data ?? "").usage).toBeNull();
    const finish = json(events.at(-3)?.data ?? "");
    expect((finish.choices as { finish_reason: string }[])[0]?.finish_reason).toBe("tool_calls");
  });

  it("leaves out exactly the terminal event of each dialect", () => {
    const terminal = {
      "openai-chat": "[DONE]",
      "openai-responses": "response.completed",
      "anthropic-messages": "message_stop",
      gemini: '"finishReason":"STOP"',
      ollama: '"done":true',
    } as const;
    for (const [dialect, marker] of Object.entries(terminal) as [keyof typeof terminal, string][]) {
      const full = writeReplyEvents(dialect, reply);
      const cut = writeReplyEvents(dialect, reply, { omitTerminal: true });
      expect(cut, dialect).toEqual(full.slice(0, -1));
      expect(full.at(-1)?.data, dialect).toContain(marker);
    }
  });

  it("puts pings and comments after the given number of events", () => {
    const events = writeReplyEvents("anthropic-messages", reply, {
      pingsAfter: [0, 2],
      comments: [{ after: 1, text: "hello" }],
    });
    expect(events[0]).toEqual({ event: "ping", data: '{"type":"ping"}' });
    expect(events[1]?.event).toBe("message_start");
    expect(events[2]).toEqual({ comment: "hello", data: "" });
    expect(events[4]).toEqual({ event: "ping", data: '{"type":"ping"}' });
    const chat = encodeEvents(
      "openai-chat",
      writeReplyEvents("openai-chat", reply, { pingsAfter: [1] }),
    );
    expect(chat.split("\n\n")[1]).toBe(": ping");
  });

  it("numbers Responses events without a gap, and an error event takes the next number", () => {
    const events = writeReplyEvents("openai-responses", reply, {
      errorAfter: { afterEvents: 5, message: "boom", type: "server_error" },
    });
    const numbers = events.map((e) => json(e.data).sequence_number);
    expect(numbers).toEqual([0, 1, 2, 3, 4, 5]);
    expect(json(events[5]?.data ?? "")).toEqual({
      type: "error",
      code: "server_error",
      message: "boom",
      param: null,
      sequence_number: 5,
    });
  });

  it("writes multi-line data that reads back the same", () => {
    const wire = encodeEvents(
      "openai-responses",
      writeReplyEvents("openai-responses", reply, { multilineData: true }),
    );
    expect(wire).toContain('data: {\ndata:   "type": "response.created",');
    const got = readReply("openai-responses", { status: 200, body: wire }, "stream");
    expect(got.parts).toEqual(reply.parts);
    expect(got.stream?.malformed).toEqual([]);
  });
});
