/**
 * Stream framing shared by the five dialects: encoding events to the exact wire bytes (SSE
 * or NDJSON) and decoding bytes back into events incrementally. Decoding is framed by
 * events, never by reads or lines: bytes go through a streaming TextDecoder (so a UTF-8
 * character split across two reads survives) and SSE goes through eventsource-parser.
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

/** An incremental reader of SSE or NDJSON frames. */
export function createFrameReader(framing: Framing, sink: FrameSink): FrameReader {
  const decoder = new TextDecoder("utf-8", { fatal: false });
  let text = "";
  let ended = false;
  let flushing = false;
  const ndjson = framing === "ndjson";
  let pendingLine = "";
  const parser = ndjson
    ? undefined
    : createParser({
        onEvent: (e) => {
          if (flushing) sink.onMalformed("last event not terminated by a blank line");
          sink.onEvent(e.event === undefined ? { data: e.data } : { event: e.event, data: e.data });
        },
        onError: (error) => sink.onMalformed(`SSE framing: ${error.message}`),
      });

  const feedText = (chunk: string) => {
    if (!chunk) return;
    text += chunk;
    if (parser) {
      parser.feed(chunk);
      return;
    }
    pendingLine += chunk;
    let nl = pendingLine.indexOf("\n");
    while (nl >= 0) {
      const line = pendingLine.slice(0, nl).replace(/\r$/, "");
      pendingLine = pendingLine.slice(nl + 1);
      if (line.trim() !== "") sink.onEvent({ data: line });
      nl = pendingLine.indexOf("\n");
    }
  };

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
        sink.onMalformed("last NDJSON line not terminated by a newline");
        sink.onEvent({ data: pendingLine.replace(/\r$/, "") });
        pendingLine = "";
      }
    },
    get text() {
      return text;
    },
  };
}
