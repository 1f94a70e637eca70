/**
 * `frameText` frames a whole body by a single scan when the SSE is plain, and through
 * eventsource-parser otherwise. Whatever path it takes, it must report exactly what the
 * incremental reference reader reports for the same text: the same events and framing
 * problems, in the same order.
 */
import { describe, expect, it } from "vitest";
import { createFrameReader, type Framing, frameText } from "./sse.ts";

type Seen = ({ event: string | undefined; data: string } | { malformed: string })[];

function sinkInto(seen: Seen) {
  return {
    onEvent: (e: { event?: string; data: string }) => seen.push({ event: e.event, data: e.data }),
    onMalformed: (why: string) => seen.push({ malformed: why }),
  };
}

function byFrameText(framing: Framing, text: string): Seen {
  const seen: Seen = [];
  frameText(framing, text, sinkInto(seen));
  return seen;
}

/** The reference: the incremental reader, fed the text in the given reads. */
function byReference(framing: Framing, reads: readonly string[]): Seen {
  const seen: Seen = [];
  const reader = createFrameReader(framing, sinkInto(seen));
  for (const read of reads) reader.push(read);
  reader.end();
  return seen;
}

/** A small deterministic generator, so a failure names a reproducible case. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const SSE_LINES = [
  'data: {"a":1}',
  "data:x",
  "data:",
  "data: ",
  "data:  two spaces",
  "event: message_start",
  "event:",
  "event:bare",
  ": ping",
  ":",
  "",
  "",
  "id: 7",
  "retry: 100",
  "retry: soon",
  "foo: bar",
  "data",
  "dat",
];

function sseText(next: () => number): string {
  const ending = next() < 0.8 ? "\n" : next() < 0.5 ? "\r\n" : "\r";
  const lines = Array.from(
    { length: 1 + Math.floor(next() * 12) },
    () => SSE_LINES[Math.floor(next() * SSE_LINES.length)] ?? "",
  );
  const bom = next() < 0.05 ? "\uFEFF" : "";
  const tail = next() < 0.7 ? ending : "";
  return bom + lines.join(ending) + tail;
}

describe("frameText", () => {
  it("frames plain SSE by events, flagging a last event without its blank line", () => {
    const text =
      'event: a\ndata: {"x":1}\n\n: keep-alive\n\ndata: line one\ndata:line two\n\ndata: [DONE]';
    expect(byFrameText("sse", text)).toEqual([
      { event: "a", data: '{"x":1}' },
      { event: undefined, data: "line one\nline two" },
      { malformed: "last event not terminated by a blank line" },
      { event: undefined, data: "[DONE]" },
    ]);
  });

  it("reports what the reference reader reports, for 2,000 generated SSE bodies", () => {
    const next = random(7);
    for (let i = 0; i < 2000; i++) {
      const text = sseText(next);
      const cut = Math.floor(next() * (text.length + 1));
      const reference = byReference("sse", [text]);
      expect(byFrameText("sse", text), JSON.stringify(text)).toEqual(reference);
      // The reference itself does not depend on where reads end.
      expect(byReference("sse", [text.slice(0, cut), text.slice(cut)])).toEqual(reference);
    }
  });

  it("hands CRLF, id and retry fields, unknown fields and a BOM to the reference", () => {
    for (const text of [
      "data: a\r\n\r\n",
      "id: 1\ndata: a\n\n",
      "retry: x\ndata: a\n\n",
      "eve\ndata: a\n\n",
      "\uFEFFdata: a\n\n",
    ]) {
      expect(byFrameText("sse", text), JSON.stringify(text)).toEqual(byReference("sse", [text]));
    }
  });

  it("frames NDJSON as the reference does: blank lines skipped, CR dropped, last line flagged", () => {
    const next = random(11);
    const pieces = ['{"a":1}', "", "  ", '{"b":2}\r', "not json", "\r"];
    for (let i = 0; i < 1000; i++) {
      const lines = Array.from(
        { length: 1 + Math.floor(next() * 6) },
        () => pieces[Math.floor(next() * pieces.length)] ?? "",
      );
      const text = lines.join("\n") + (next() < 0.6 ? "\n" : "");
      expect(byFrameText("ndjson", text), JSON.stringify(text)).toEqual(
        byReference("ndjson", [text]),
      );
    }
  });

  it("keeps every decoded character of the reads in the incremental reader's text", () => {
    const body = 'data: {"t":"Zürich 🌤"}\n\n';
    const bytes = new TextEncoder().encode(body);
    const cut = bytes.indexOf(0xf0) + 2; // inside the emoji
    const reader = createFrameReader("sse", sinkInto([]));
    reader.push(bytes.slice(0, cut));
    reader.push(bytes.slice(cut));
    reader.end();
    expect(reader.text).toBe(body);
  });
});
