import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readReply } from "../reply.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const read = (body: string) => readReply("anthropic-messages", { status: 200, body }, "stream");

describe("anthropic-messages stream reader", () => {
  it("reads a captured text stream with a ping", () => {
    const got = read(fixture("stream-text.sse"));
    expect(got.parts).toEqual([
      {
        type: "text",
        text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
      },
    ]);
    expect(got.usage).toEqual({
      inputTokens: 12,
      outputTokens: 30,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect(got.stream).toEqual({
      complete: true,
      terminalEvent: "message_stop",
      events: 12,
      malformed: [],
      orphanFragments: 0,
      blocks: { count: 1, faults: [] },
    });
  });

  it("reads a tool call whose only argument fragment is empty", () => {
    const got = read(fixture("stream-tool-no-args.sse"));
    expect(got.parts[1]).toEqual({
      type: "tool-call",
      id: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP",
      name: "updateIssueList",
      arguments: "",
    });
    expect(got.stopReason).toBe("tool_calls");
  });

  it("reads the documented thinking stream: thinking deltas then the signature", () => {
    const got = read(fixture("stream-thinking.sse"));
    expect(got.parts[0]).toEqual({
      type: "thinking",
      text: "I need to find the GCD of 1071 and 462 using the Euclidean algorithm.\n\n1071 = 2 × 462 + 147\n462 = 3 × 147 + 21\n147 = 7 × 21 + 0\n\nSo GCD(1071, 462) = 21",
      signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds...",
    });
    expect(got.parts[1]).toEqual({
      type: "text",
      text: "The greatest common divisor of 1071 and 462 is **21**.",
    });
    expect(got.usage).toBeUndefined();
  });

  it("flags an event name that disagrees with its data type", () => {
    const got = read('event: content_block_stop\ndata: {"type":"message_stop"}\n\n');
    expect(got.stream?.malformed).toEqual([
      "event 1: event name content_block_stop but data type message_stop",
    ]);
  });

  it("reads a mid-stream error event", () => {
    const body = `${fixture("stream-text.sse").split("event: content_block_stop")[0]}event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n`;
    const got = read(body);
    expect(got.stream?.error).toMatchObject({ type: "overloaded_error", message: "Overloaded" });
    expect(got.stream?.complete).toBe(false);
    expect(got.stopReason).toBeUndefined();
  });

  it("keeps a server-tool block whole and leaves its input deltas alone", () => {
    const ev = (type: string, body: Record<string, unknown>) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
    const block = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} };
    const body =
      ev("message_start", { message: { id: "msg_1", content: [] } }) +
      ev("content_block_start", { index: 0, content_block: block }) +
      ev("content_block_delta", {
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"q":1}' },
      }) +
      ev("content_block_stop", { index: 0 }) +
      ev("message_stop", {});
    const got = read(body);
    expect(got.parts).toEqual([{ type: "unknown", raw: block }]);
    expect(got.stream).toMatchObject({ complete: true, malformed: [], orphanFragments: 0 });
  });

  it("flags a delta for a block never started and a repeated message_start", () => {
    const ev = (type: string, body: Record<string, unknown>) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
    const start = ev("message_start", { message: { id: "msg_1", content: [] } });
    const body =
      start +
      start +
      ev("content_block_delta", { index: 4, delta: { type: "text_delta", text: "x" } }) +
      ev("message_stop", {});
    const got = read(body);
    expect(got.stream?.malformed).toEqual([
      "event 2: a second message_start",
      "event 3: delta for block:4, which was never started",
    ]);
  });

  describe("each block's lifecycle (start, deltas, stop)", () => {
    const ev = (type: string, body: Record<string, unknown> = {}) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
    const tool = { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} };
    const args = (index: number, partial_json: string) =>
      ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } });
    const begin = ev("message_start", { message: { id: "msg_1", content: [] } });
    const end = ev("message_delta", { delta: { stop_reason: "tool_use" } }) + ev("message_stop");

    it("reads tool arguments as of the block's stop and keeps a later delta as a fault", () => {
      const body =
        begin +
        ev("content_block_start", { index: 0, content_block: tool }) +
        args(0, '{"city":"Paris"}') +
        ev("content_block_stop", { index: 0 }) +
        args(0, '{"city":"Rome"}') +
        end;
      const got = read(body);
      expect(got.parts).toEqual([
        { type: "tool-call", id: "toolu_1", name: "get_weather", arguments: '{"city":"Paris"}' },
      ]);
      expect(got.stream?.blocks).toEqual({
        count: 1,
        faults: [{ fault: "after-stop", block: "block:0", event: 5, type: "content_block_delta" }],
      });
      expect(got.stream?.malformed).toEqual([
        "event 5: delta for block:0 after its content_block_stop",
      ]);
    });

    it("keeps a second start, a stop never started and a block never stopped as faults", () => {
      const text = { type: "text", text: "" };
      const body =
        begin +
        ev("content_block_start", { index: 0, content_block: text }) +
        ev("content_block_start", { index: 0, content_block: text }) +
        ev("content_block_stop", { index: 0 }) +
        ev("content_block_stop", { index: 2 }) +
        ev("content_block_start", { index: 1, content_block: text }) +
        end;
      const got = read(body);
      expect(got.stream?.blocks?.faults.map((f) => `${f.fault} ${f.block}`)).toEqual([
        "started-twice block:0",
        "no-start block:2",
        "no-stop block:1",
      ]);
      expect(got.stream?.malformed).toEqual([
        "event 3: content_block_start for block:0, which was already started",
        "event 5: content_block_stop for block:2, which was never started",
        "block:1: never stopped before message_stop",
      ]);
    });

    it("finds no fault in the captured streams, and does not ask a cut stream for its stops", () => {
      for (const name of ["stream-text.sse", "stream-thinking.sse", "stream-tool-no-args.sse"]) {
        expect(read(fixture(name)).stream?.blocks?.faults).toEqual([]);
      }
      const cut = begin + ev("content_block_start", { index: 0, content_block: tool });
      expect(read(cut).stream?.blocks).toEqual({ count: 1, faults: [] });
    });
  });
});
