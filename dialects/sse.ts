/**
 * Stream framing shared by the five dialects: encoding events to the exact wire bytes (SSE
 * or NDJSON) and decoding text back into events. Decoding is framed by events, never by
 * reads or lines: bytes go through a streaming TextDecoder (so a UTF-8 character split
 * across two reads survives). `frameText` frames a whole body; SSE that is well formed in
 * the plain way (LF line ends, only `data:`, `event:` and comment lines) is framed by a
 * single scan, and everything else goes through eventsource-parser, the reference for the
 * nasty cases (CR and CRLF line ends, `id:` and `retry:` fields, unknown fields, a BOM).
 * `createFrameReader` is the incremental reader (SSE all through eventsource-parser), and the
 * reference `frameText` must agree with (sse-frame-text.test.ts).
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 * @see https://github.com/ndjson/ndjson-spec
 */
import { createParser } from "eventsource-parser";

/**
 * One event as a writer produces it. For SSE dialects `data` is the event's data (it may
 * contain newlines: the encoder splits it into several `data:` lines); `comment` alone makes
 * a `: comment` line. For Ollama each event's `data` is one NDJSON line.
 */
export interface StreamEvent {
  event?: string;
  data: string;
  comment?: string;
}

/** A writer's events before the plan's faults are applied. */
export interface WrittenEvents {
  events: StreamEvent[];
  /** How many trailing events are the terminal ones (left out by `omitTerminal`). */
  terminal: number;
}

/** One event as a reader received it. */
export interface ReceivedEvent {
  event?: string;
  data: string;
}

export type Framing = "sse" | "ndjson";

/** The exact wire text of a list of events. */
export function encodeStream(framing: Framing, events: readonly StreamEvent[]): string {
  if (framing === "ndjson") {
    return events
      .filter((e) => e.comment === undefined || e.data !== "")
      .map((e) => `${e.data}\n`)
      .join("");
  }
  let out = "";
  for (const e of events) {
    if (e.comment !== undefined) {
      // A comment line per line of comment text; a comment event carries no data.
      for (const line of e.comment.split(/\r\n|\r|\n/)) out += `: ${line}\n`;
      if (e.data === "" && e.event === undefined) {
        out += "\n";
        continue;
      }
    }
    if (e.event !== undefined) out += `event: ${e.event}\n`;
    for (const line of e.data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
    out += "\n";
  }
  return out;
}

/** What the frame reader reports besides events. */
export interface FrameSink {
  onEvent(event: ReceivedEvent): void;
  /** Framing problems (an unterminated last event, a stray field) with why. */
  onMalformed(why: string): void;
}

export interface FrameReader {
  /** Feed one read from the socket, as it came. */
  push(chunk: Uint8Array | string): void;
  /** The stream ended (EOF). Flushes the decoder and reports an unterminated event. */
  end(): void;
  /** Every character decoded so far (used to spot a JSON body where a stream was expected). */
  readonly text: string;
}

const UNTERMINATED_SSE = "last event not terminated by a blank line";
const UNTERMINATED_NDJSON = "last NDJSON line not terminated by a newline";
const CR = 13;
const SPACE = 32;
const COLON = 58;

/**
 * Frame a whole body: every event to the sink in order, with the framing problems the
 * incremental reader would report for the same text, at the same places.
 */
export function frameText(framing: Framing, text: string, sink: FrameSink): void {
  if (framing === "ndjson") {
    frameNdjson(text, sink);
    return;
  }
  if (frameWellFormedSse(text, sink)) return;
  const reader = createFrameReader(framing, sink);
  reader.push(text);
  reader.end();
}

/** NDJSON: one event per non-blank line (a CR before the LF is not part of it). */
function frameNdjson(text: string, sink: FrameSink): void {
  let start = 0;
  for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
    const line =
      text.charCodeAt(nl - 1) === CR && nl > start
        ? text.slice(start, nl - 1)
        : text.slice(start, nl);
    if (line.trim() !== "") sink.onEvent({ data: line });
    start = nl + 1;
  }
  const last = text.slice(start);
  if (last.trim() !== "") {
    sink.onMalformed(UNTERMINATED_NDJSON);
    sink.onEvent({ data: last.endsWith("\r") ? last.slice(0, -1) : last });
  }
}

/**
 * The single-scan framing of plain SSE, following the spec's interpretation as
 * eventsource-parser does: a `data:` or `event:` value starts after one optional space,
 * data lines join with LF, a blank line dispatches an event that has data, a comment line
 * is skipped, and a last event with no blank line after it is delivered but flagged. Any
 * other line, a CR anywhere or a leading BOM, and it frames nothing and answers false:
 * the caller then hands the text to the reference parser.
 */
function frameWellFormedSse(text: string, sink: FrameSink): boolean {
  if (text.includes("\r") || text.charCodeAt(0) === 0xfeff) return false;
  const events: ReceivedEvent[] = [];
  let event: string | undefined;
  let data: string | undefined;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    if (end === start) {
      if (data !== undefined) events.push(event === undefined ? { data } : { event, data });
      event = undefined;
      data = undefined;
    } else if (text.startsWith("data:", start)) {
      const value = text.slice(text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end);
      data = data === undefined ? value : `${data}\n${value}`;
    } else if (text.startsWith("event:", start)) {
      event =
        text.slice(text.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end) || undefined;
    } else if (text.charCodeAt(start) !== COLON) {
      return false;
    }
    start = end + 1;
  }
  for (const e of events) sink.onEvent(e);
  if (data !== undefined) {
    sink.onMalformed(UNTERMINATED_SSE);
    sink.onEvent(event === undefined ? { data } : { event, data });
  }
  return true;
}

/** An incremental reader of SSE or NDJSON frames. */
export function createFrameReader(framing: Framing, sink: FrameSink): FrameReader {
  const decoder = new TextDecoder("utf-8", { fatal: false });
  // The decoded reads, joined only when `text` is asked for.
  const texts: string[] = [];
  let ended = false;
  let flushing = false;
  const ndjson = framing === "ndjson";
  let pendingLine = "";
  const parser = ndjson
    ? undefined
    : createParser({
        onEvent(e) {
          if (flushing) sink.onMalformed(UNTERMINATED_SSE);
          sink.onEvent(e.event === undefined ? { data: e.data } : { event: e.event, data: e.data });
        },
        onError(error) {
          sink.onMalformed(`SSE framing: ${error.message}`);
        },
      });

  function feedText(chunk: string): void {
    if (!chunk) return;
    texts.push(chunk);
    if (parser) {
      parser.feed(chunk);
      return;
    }
    pendingLine += chunk;
    let start = 0;
    for (let nl = pendingLine.indexOf("\n"); nl >= 0; nl = pendingLine.indexOf("\n", start)) {
      const line = pendingLine.slice(start, nl).replace(/\r$/, "");
      if (line.trim() !== "") sink.onEvent({ data: line });
      start = nl + 1;
    }
    pendingLine = pendingLine.slice(start);
  }

  return {
    push(chunk) {
      if (ended) return;
      feedText(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
    },
    end() {
      if (ended) return;
      feedText(decoder.decode());
      ended = true;
      if (parser) {
        // A trailing event without its blank line is still delivered, but flagged.
        flushing = true;
        parser.feed("\n\n");
        flushing = false;
      } else if (pendingLine.trim() !== "") {
        sink.onMalformed(UNTERMINATED_NDJSON);
        sink.onEvent({ data: pendingLine.replace(/\r$/, "") });
        pendingLine = "";
      }
    },
    get text() {
      if (texts.length > 1) texts.splice(0, texts.length, texts.join(""));
      return texts[0] ?? "";
    },
  };
}
