/**
 * Gemini's JSON-array stream: the bytes the mock writes are Google's (`[{`, pretty-printed
 * elements, `\n,\r\n` between them, `\n]`), a gateway's way of splitting them (Portkey splits
 * a Google stream on `\r\n` and strips `[`, `,` and `]`) finds every element, and the frame
 * reader hands each element on and names what is not a whole array.
 */
import { describe, expect, it } from "vitest";
import { encodeJsonArrayUnits, frameJsonArray } from "./json-array.ts";
import { readReply, writeReplyEvents } from "./reply.ts";

const event = (value: unknown) => ({ data: JSON.stringify(value) });

function frame(text: string): { events: string[]; malformed: string[] } {
  const events: string[] = [];
  const malformed: string[] = [];
  frameJsonArray(text, {
    onEvent: (e) => events.push(e.data),
    onMalformed: (why) => malformed.push(why),
  });
  return { events, malformed };
}

describe("writing", () => {
  it("writes Google's bytes: [{ ... }\\n,\\r\\n{ ... }\\n]", () => {
    const units = encodeJsonArrayUnits([event({ a: 1 }), event({ b: [2] })]);
    expect(units).toEqual(['[{\n  "a": 1\n}\n', ',\r\n{\n  "b": [\n    2\n  ]\n}\n', "]"]);
    expect(JSON.parse(units.join(""))).toEqual([{ a: 1 }, { b: [2] }]);
  });

  it("leaves keep-alive comments out and closes an empty array", () => {
    expect(encodeJsonArrayUnits([{ comment: "ping", data: "" }])).toEqual(["[]"]);
  });

  it("splits as Portkey splits a Google stream: on \\r\\n, stripping [ , and ]", () => {
    const text = encodeJsonArrayUnits([event({ a: 1 }), event({ b: 2 }), event({ c: 3 })]).join("");
    const pieces = text.split("\r\n").map((piece) => {
      let chunk = piece.trim();
      if (chunk.startsWith("[")) chunk = chunk.slice(1);
      if (chunk.endsWith(",")) chunk = chunk.slice(0, -1);
      if (chunk.endsWith("]")) chunk = chunk.slice(0, -2);
      return JSON.parse(chunk.trim());
    });
    expect(pieces).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
  });
});

describe("framing", () => {
  it("hands on each element's text, brackets and escapes inside strings kept", () => {
    const text = '[{\n  "t": "a ] } \\" ["\n}\n,\r\n{"n": [1, {"x": "}"}]}\n]';
    const { events, malformed } = frame(text);
    expect(events.map((e) => JSON.parse(e))).toEqual([{ t: 'a ] } " [' }, { n: [1, { x: "}" }] }]);
    expect(malformed).toEqual([]);
  });

  it.each([
    ['{"a": 1}', ["a JSON-array stream that does not start with ["]],
    ['[{"a": 1}\n,\r\n', ["JSON array not closed by ]"]],
    ['[{"a": 1}\n,\r\n{"b": ', ["last JSON-array element cut short"]],
    ['[{"a": 1} {"b": 2}]', ["no comma before the element at offset 10"]],
    ['[{"a": 1},,{"b": 2}]', ["a stray comma at offset 10"]],
    ['[{"a": 1}] tail', ["text after the JSON array's closing ]"]],
  ])("names what is wrong in %j", (text, why) => {
    expect(frame(text).malformed).toEqual(why);
  });
});

describe("the lens reads a Gemini JSON-array stream as the stream it is", () => {
  const reply = {
    dialect: "gemini" as const,
    parts: [{ type: "text" as const, text: "Hello there" }],
    stopReason: "stop" as const,
    usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
    extras: {},
  };
  const body = encodeJsonArrayUnits(writeReplyEvents("gemini", reply, { textChunkSize: 4 })).join(
    "",
  );

  it("whole: text, stop, usage, complete, nothing malformed", () => {
    const got = readReply("gemini", { status: 200, body }, "stream");
    expect(got.parts).toEqual([{ type: "text", text: "Hello there" }]);
    expect(got.stopReason).toBe("stop");
    expect(got.usage?.inputTokens).toBe(3);
    expect(got.stream).toMatchObject({ complete: true, malformed: [] });
    expect(got.stream?.events).toBe(4);
  });

  it("cut before its end: incomplete, and said so", () => {
    // Cut before the last element (the one with finishReason): no closing ] either.
    const cut = body.slice(0, body.lastIndexOf(",\r\n"));
    const got = readReply("gemini", { status: 200, body: cut }, "stream");
    expect(got.parts).toEqual([{ type: "text", text: "Hello there" }]);
    expect(got.stream?.complete).toBe(false);
    expect(got.stream?.malformed).toContain("JSON array not closed by ]");
  });

  it("an empty array is an empty stream, not a JSON document", () => {
    const got = readReply("gemini", { status: 200, body: "[]" }, "stream");
    expect(got.stream?.malformed).toEqual(["no events in the stream"]);
  });

  it("a dialect with no JSON-array form still reads an array as a JSON document where a stream was expected", () => {
    const got = readReply("openai-chat", { status: 200, body: "[{}]" }, "stream");
    expect(got.stream?.malformed).toEqual(["body is a JSON document, not an event stream"]);
  });
});
