/**
 * The torture cases adapter authors name, through the public reader with reads cut as a
 * socket would cut them: multi-line data, CRLF, a UTF-8 character split across reads, a
 * `data:` line split across reads, comments and pings, interleaved tool fragments, EOF
 * without the terminal event, usage after text, a mid-stream error.
 */
import { describe, expect, it } from "vitest";
import { readReplyChunks } from "./reply.ts";
import { createFrameReader, encodeStream, type ReceivedEvent } from "./sse.ts";

const enc = new TextEncoder();
const chunk = (delta: unknown, finish: string | null = null) =>
  JSON.stringify({
    id: "c1",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
const text = (t: string) => chunk({ content: t });

/** Cut a string's UTF-8 bytes at the given byte offsets. */
function cutAt(body: string, offsets: number[]): Uint8Array[] {
  const bytes = enc.encode(body);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const at of [...offsets, bytes.length]) {
    out.push(bytes.slice(from, at));
    from = at;
  }
  return out;
}

const chat = (chunks: Uint8Array[]) => readReplyChunks("openai-chat", chunks, 200, "stream");

describe("stream framing torture cases", () => {
  it("joins multi-line data into one event", () => {
    const pretty = JSON.stringify(JSON.parse(text("multi")), null, 2).split("\n");
    const body = `${pretty.map((l) => `data: ${l}`).join("\n")}\n\ndata: [DONE]\n\n`;
    const got = chat(cutAt(body, []));
    expect(got.parts).toEqual([{ type: "text", text: "multi" }]);
    expect(got.stream?.events).toBe(2);
    expect(got.stream?.malformed).toEqual([]);
  });

  it("reads CRLF line endings", () => {
    const body = `data: ${text("crlf")}\r\n\r\ndata: ${chunk({}, "stop")}\r\n\r\ndata: [DONE]\r\n\r\n`;
    const got = chat(cutAt(body, [3, 40]));
    expect(got.parts).toEqual([{ type: "text", text: "crlf" }]);
    expect(got.stream?.complete).toBe(true);
  });

  it("reads a CRLF pair split between two reads as one line ending", () => {
    const body = `data: ${text("a")}\r\n\r\ndata: ${text("b")}\r\n\r\ndata: [DONE]\r\n\r\n`;
    const first = body.indexOf("\r") + 1;
    const got = chat(cutAt(body, [first, first + 2]));
    expect(got.parts).toEqual([{ type: "text", text: "ab" }]);
    expect(got.stream).toMatchObject({ complete: true, events: 3, malformed: [] });
  });

  it("decodes a non-stream body whose UTF-8 is split across reads", () => {
    const body = JSON.stringify({
      id: "x",
      choices: [{ message: { content: "naïve" }, finish_reason: "stop" }],
    });
    const cut = enc.encode(body).indexOf(0xc3) + 1;
    const got = readReplyChunks("openai-chat", cutAt(body, [cut]), 200, "non-stream");
    expect(got.parts).toEqual([{ type: "text", text: "naïve" }]);
  });

  it("keeps a UTF-8 character split across two reads", () => {
    const body = `data: ${text("Zürich 🌤")}\n\ndata: [DONE]\n\n`;
    const bytes = enc.encode(body);
    const u = bytes.indexOf(0xc3); // first byte of ü
    const sun = bytes.indexOf(0xf0); // first byte of the emoji
    const got = chat(cutAt(body, [u + 1, sun + 2]));
    expect(got.parts).toEqual([{ type: "text", text: "Zürich 🌤" }]);
    expect(got.stream?.malformed).toEqual([]);
  });

  it("reads a data: line split across reads, even inside the field name", () => {
    const body = `data: ${text("split")}\n\ndata: [DONE]\n\n`;
    const got = chat(cutAt(body, [2, 4, 20, body.length - 8]));
    expect(got.parts).toEqual([{ type: "text", text: "split" }]);
    expect(got.stream?.complete).toBe(true);
  });

  it("ignores comments and keep-alives, counting only events", () => {
    const body = `: OPENROUTER PROCESSING\n\ndata: ${text("a")}\n\n: ping\n\ndata: ${text("b")}\n\ndata: [DONE]\n\n`;
    const got = chat(cutAt(body, [5]));
    expect(got.parts).toEqual([{ type: "text", text: "ab" }]);
    expect(got.stream?.events).toBe(3);
  });

  it("assembles interleaved fragments of two parallel tool calls by index", () => {
    const call = (index: number, extra: Record<string, unknown>) =>
      chunk({ tool_calls: [{ index, ...extra }] });
    const events = [
      call(0, { id: "call_1", type: "function", function: { name: "a", arguments: "" } }),
      call(1, { id: "call_2", type: "function", function: { name: "b", arguments: "" } }),
      call(0, { function: { arguments: '{"x"' } }),
      call(1, { function: { arguments: '{"y"' } }),
      call(1, { function: { arguments: ":2}" } }),
      call(0, { function: { arguments: ":1}" } }),
      chunk({}, "tool_calls"),
      "[DONE]",
    ];
    const body = events.map((e) => `data: ${e}\n\n`).join("");
    const got = chat(cutAt(body, [100, 333, 500]));
    expect(got.parts).toEqual([
      { type: "tool-call", id: "call_1", name: "a", arguments: '{"x":1}' },
      { type: "tool-call", id: "call_2", name: "b", arguments: '{"y":2}' },
    ]);
    expect(got.stream?.orphanFragments).toBe(0);
  });

  it("reports EOF without the terminal event as incomplete, never as success", () => {
    const body = `data: ${text("cut")}\n\ndata: ${chunk({}, "stop")}\n\n`;
    const got = chat(cutAt(body, []));
    expect(got.stopReason).toBe("stop");
    expect(got.stream?.complete).toBe(false);
    expect(got.stream?.terminalEvent).toBeUndefined();
  });

  it("flags a last event cut before its blank line, and still reads it", () => {
    const got = chat(cutAt(`data: ${text("x")}\n\ndata: [DONE]`, []));
    expect(got.stream?.complete).toBe(true);
    expect(got.stream?.malformed).toEqual(["last event not terminated by a blank line"]);
  });

  it("keeps usage that arrives after the text and the finish reason", () => {
    const usage = JSON.stringify({
      id: "c1",
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    });
    const body = `data: ${text("hi")}\n\ndata: ${chunk({}, "stop")}\n\ndata: ${usage}\n\ndata: [DONE]\n\n`;
    const got = chat(cutAt(body, [10]));
    expect(got.usage).toEqual({ inputTokens: 5, outputTokens: 2, totalTokens: 7 });
    expect(got.stream?.complete).toBe(true);
  });

  it("reads a mid-stream error in the dialect's shape", () => {
    const error = JSON.stringify({
      error: { message: "overloaded", type: "server_error", param: null, code: null },
    });
    const got = chat(cutAt(`data: ${text("par")}\n\ndata: ${error}\n\n`, [7]));
    expect(got.parts).toEqual([{ type: "text", text: "par" }]);
    expect(got.stream?.error).toMatchObject({ type: "server_error", message: "overloaded" });
    expect(got.stream?.complete).toBe(false);
  });

  it("reads an empty 200 stream as incomplete with a reason", () => {
    const got = chat([]);
    expect(got.stream).toMatchObject({ complete: false, events: 0, malformed: ["empty stream"] });
  });

  it("reads a non-2xx stream reply as an error from its body", () => {
    const got = readReplyChunks(
      "anthropic-messages",
      cutAt('{"type":"error","error":{"type":"rate_limit_error","message":"slow"}}', [9]),
      429,
      "stream",
    );
    expect(got.error).toMatchObject({ status: 429, type: "rate_limit_error", message: "slow" });
    expect(got.stream?.complete).toBe(false);
  });
});

describe("frame encoding", () => {
  it("writes SSE with event names, split multi-line data and comment lines", () => {
    const wire = encodeStream("sse", [
      { event: "ping", data: '{"type":"ping"}' },
      { data: "line one\nline two" },
      { comment: "keep-alive", data: "" },
    ]);
    expect(wire).toBe(
      'event: ping\ndata: {"type":"ping"}\n\ndata: line one\ndata: line two\n\n: keep-alive\n\n',
    );
  });

  it("writes NDJSON one object per line, dropping comments", () => {
    expect(
      encodeStream("ndjson", [
        { data: '{"a":1}' },
        { comment: "x", data: "" },
        { data: '{"b":2}' },
      ]),
    ).toBe('{"a":1}\n{"b":2}\n');
  });

  it("frames NDJSON lines split across reads and flags an unterminated last line", () => {
    const events: ReceivedEvent[] = [];
    const malformed: string[] = [];
    const reader = createFrameReader("ndjson", {
      onEvent: (e) => events.push(e),
      onMalformed: (w) => malformed.push(w),
    });
    reader.push('{"a":');
    reader.push('1}\r\n{"b"');
    reader.push(":2}");
    reader.end();
    expect(events).toEqual([{ data: '{"a":1}' }, { data: '{"b":2}' }]);
    expect(malformed).toEqual(["last NDJSON line not terminated by a newline"]);
  });
});

describe("bodies in the other framing", () => {
  it("reads an event stream sent where a JSON body was asked for, and says so", () => {
    const body = `data: ${text("streamed")}\n\ndata: [DONE]\n\n`;
    const got = readReplyChunks("openai-chat", cutAt(body, []), 200, "non-stream");
    expect(got.parts).toEqual([{ type: "text", text: "streamed" }]);
    expect(got.stream?.malformed).toEqual(["an event stream where a JSON body was expected"]);
  });

  it("reads Ollama NDJSON sent where one JSON object was asked for", () => {
    const line = (content: string, done: boolean) =>
      JSON.stringify({ message: { role: "assistant", content }, done });
    const got = readReplyChunks(
      "ollama",
      cutAt(`${line("a", false)}\n${line("b", true)}\n`, []),
      200,
      "non-stream",
    );
    expect(got.parts).toEqual([{ type: "text", text: "ab" }]);
    expect(got.stream?.malformed[0]).toBe("an event stream where a JSON body was expected");
  });

  it("reads Gemini's JSON-array answer of streamGenerateContent without alt=sse", () => {
    const piece = (t: string, finishReason?: string) => ({
      candidates: [{ content: { parts: [{ text: t }], role: "model" }, finishReason, index: 0 }],
    });
    const body = JSON.stringify([piece("Hel"), piece("lo", "STOP")]);
    const got = readReplyChunks("gemini", cutAt(body, []), 200, "non-stream");
    expect(got.parts).toEqual([{ type: "text", text: "Hello" }]);
    expect(got.stopReason).toBe("stop");
    expect(got.stream).toBeUndefined();
  });

  it("reads an error object sent with 200 to a stream request as an error", () => {
    const body = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
    const got = readReplyChunks("anthropic-messages", cutAt(body, []), 200, "stream");
    expect(got.error).toMatchObject({ status: 200, type: "overloaded_error" });
    expect(got.stream?.malformed).toEqual(["body is a JSON document, not an event stream"]);
  });
});
