/**
 * Replies in the five dialects: write a canonical reply as a dialect's JSON body, stream
 * events or wire bytes, write a dialect's error response, and read any of them back into
 * the canonical model. The per-dialect knowledge lives in `dialects/<dialect>/`; this file
 * only dispatches and applies what every dialect shares (the stream plan's faults, the
 * error-body variants that break adapters).
 */

import type { CanonicalReply, ReplyError } from "./canonical.ts";
import type { Dialect, Mode } from "./dialect.ts";
import type { ReplyCodec } from "./dialect-module.ts";
import { tryParseJson } from "./json.ts";
import { frameJsonArray } from "./json-array.ts";
import { dialectModule } from "./registry.ts";
import { encodeStream, frameText, type ReceivedEvent, type StreamEvent } from "./sse.ts";
import type { StreamPlan } from "./stream-plan.ts";

export type { StreamEvent } from "./sse.ts";
export type { StreamPlan } from "./stream-plan.ts";

/** The JSON body of a non-streamed reply, exactly as the provider sends it. */
export function writeReply(dialect: Dialect, reply: CanonicalReply): Record<string, unknown> {
  return dialectModule(dialect).reply.write(reply);
}

/**
 * The stream events of a reply, cut and shaped by the plan: content events first, then the
 * plan's faults (an error after K events, the terminal event left out), then keep-alives and
 * comments slotted in after the given event counts.
 */
export function writeReplyEvents(
  dialect: Dialect,
  reply: CanonicalReply,
  plan: StreamPlan = {},
): StreamEvent[] {
  const writers: ReplyCodec = dialectModule(dialect).reply;
  const written = writers.events(reply, plan);
  let events = written.events;
  if (plan.errorAfter) {
    const k = Math.min(plan.errorAfter.afterEvents, events.length);
    const error: ReplyError = { message: plan.errorAfter.message };
    if (plan.errorAfter.type !== undefined) error.type = plan.errorAfter.type;
    if (plan.errorAfter.status !== undefined) error.status = plan.errorAfter.status;
    events = [...events.slice(0, k), writers.errorEvent(error, k, plan)];
  } else if (plan.omitTerminal) {
    events = events.slice(0, events.length - written.terminal);
  }
  const inserts = new Map<number, StreamEvent[]>();
  const add = (after: number, event: StreamEvent) => {
    const at = Math.min(after, events.length);
    inserts.set(at, [...(inserts.get(at) ?? []), event]);
  };
  for (const after of plan.pingsAfter ?? []) add(after, writers.ping(plan));
  for (const c of plan.comments ?? []) add(c.after, { comment: c.text, data: "" });
  if (inserts.size === 0) return events;
  const out: StreamEvent[] = [...(inserts.get(0) ?? [])];
  events.forEach((e, i) => {
    out.push(e, ...(inserts.get(i + 1) ?? []));
  });
  return out;
}

/** The exact wire text of events: SSE for four dialects, NDJSON for Ollama. */
export function encodeEvents(dialect: Dialect, events: readonly StreamEvent[]): string {
  return encodeStream(dialectModule(dialect).routes.framing, events);
}

export type ErrorShape = "object" | "string" | "html" | "empty";

export interface ErrorSpec {
  status: number;
  message: string;
  /** The provider's error type (`invalid_request_error`, `overloaded_error`, `INVALID_ARGUMENT`). */
  type?: string;
  /**
   * `object`: the provider's own body. The variants that break adapters: `string` (`error`
   * as a bare string), `html` (a proxy's HTML error page), `empty` (no body at all).
   */
  shape?: ErrorShape;
}

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const REASON_PHRASES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  529: "Overloaded",
};

/** An error response as the provider (or the proxy in front of it) sends it. */
export function writeError(dialect: Dialect, spec: ErrorSpec): ErrorResponse {
  const module = dialectModule(dialect);
  const json = { "content-type": module.contentTypes.json };
  switch (spec.shape ?? "object") {
    case "string":
      return { status: spec.status, headers: json, body: JSON.stringify({ error: spec.message }) };
    case "html": {
      // The page nginx sends in front of an unreachable upstream.
      const title = `${spec.status} ${REASON_PHRASES[spec.status] ?? "Error"}`;
      const body = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
      return { status: spec.status, headers: { "content-type": "text/html" }, body };
    }
    case "empty":
      return { status: spec.status, headers: { "content-length": "0" }, body: "" };
    default:
      return {
        status: spec.status,
        headers: json,
        body: JSON.stringify(module.reply.errorObject(spec.status, spec.message, spec.type)),
      };
  }
}

// ---------------------------------------------------------------------------------------
// Readers

export interface WireReply {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

const isSuccess = (status: number) => status >= 200 && status < 300;

/** The title of an HTML error page, or the start of any other text. */
function textMessage(body: string): string {
  const title = /<title>([^<]*)<\/title>/i.exec(body)?.[1];
  return (title ?? body).trim().slice(0, 200);
}

/** A reply that is an error: from a non-2xx status, in any of the body shapes. */
function errorReply(dialect: Dialect, status: number, body: string): CanonicalReply {
  const error: ReplyError = { status };
  if (body.trim() !== "") {
    const parsed = tryParseJson(body);
    if (parsed.ok) {
      Object.assign(error, dialectModule(dialect).reply.readError(parsed.value) ?? {});
      error.raw = parsed.value;
    } else {
      error.message = textMessage(body);
      error.raw = body;
    }
  }
  return { dialect, parts: [], error, extras: {} };
}

/** Whether a body that is not one JSON document is a stream in the dialect's framing. */
function looksLikeStream(dialect: Dialect, body: string): boolean {
  const text = body.trimStart();
  if (dialectModule(dialect).routes.framing === "sse") return /^(data|event|id|retry)?:/.test(text);
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  return lines.length > 1 && tryParseJson(lines[0] ?? "").ok;
}

/** A non-streamed body: an error for non-2xx, else the dialect's reader (errors in 2xx kept). */
function readBody(dialect: Dialect, status: number, body: string): CanonicalReply {
  if (!isSuccess(status)) return errorReply(dialect, status, body);
  const parsed = tryParseJson(body);
  if (!parsed.ok) {
    if (looksLikeStream(dialect, body)) {
      // A stream where a JSON body was asked for: read it, and say so in its lifecycle.
      const reply = readStreamText(dialect, status, body);
      reply.stream?.malformed.unshift("an event stream where a JSON body was expected");
      return reply;
    }
    return {
      dialect,
      parts: [],
      error: { status, message: `body is not JSON: ${textMessage(body) || "(empty)"}`, raw: body },
      extras: {},
    };
  }
  const reply = dialectModule(dialect).reply.read(parsed.value);
  if (reply.error) reply.error = { status, ...reply.error };
  return reply;
}

/**
 * Whether a stream's text is a JSON array the dialect streams in (Gemini without `alt=sse`,
 * its reply-form table says so): read element by element as events, never as a JSON document
 * where a stream was expected.
 */
function isJsonArrayStream(dialect: Dialect, text: string): boolean {
  if (text.trimStart().charAt(0) !== "[") return false;
  return dialectModule(dialect).replyForms.some((row) => row.form === "json-array");
}

/**
 * A streamed reply from its whole decoded text. A non-2xx reply is an error read from its
 * body, whatever framing the body has, so it is not framed at all.
 */
function readStreamText(dialect: Dialect, status: number, text: string): CanonicalReply {
  if (!isSuccess(status)) {
    return {
      ...errorReply(dialect, status, text),
      stream: { complete: false, events: 0, malformed: [], orphanFragments: 0 },
    };
  }
  const reader = dialectModule(dialect).reply.streamReader();
  const sink = {
    onEvent(e: ReceivedEvent) {
      reader.push(e);
    },
    onMalformed(why: string) {
      reader.malformed(why);
    },
  };
  const array = isJsonArrayStream(dialect, text);
  if (array) frameJsonArray(text, sink);
  else frameText(dialectModule(dialect).routes.framing, text, sink);
  const reply = reader.finish();
  const lifecycle = reply.stream;
  if (lifecycle && lifecycle.events === 0) {
    const trimmed = text.trim();
    if (!array && (trimmed.startsWith("{") || trimmed.startsWith("["))) {
      // A JSON document where a stream was expected: read it, and say so.
      const body = readBody(dialect, status, trimmed);
      return {
        ...body,
        stream: { ...lifecycle, malformed: ["body is a JSON document, not an event stream"] },
      };
    }
    lifecycle.malformed.push(trimmed === "" ? "empty stream" : "no events in the stream");
  }
  return reply;
}

/** An incremental reader of a streamed reply: push each read as it arrives, then end. */
export interface ReplyStreamReader {
  push(chunk: Uint8Array | string): void;
  end(): CanonicalReply;
}

/**
 * Reads are decoded as they come (a streaming TextDecoder, so a character split across
 * reads survives) and framed into events once the stream has ended: the reply exists only
 * then, and framing the whole text at once is the cheap path (sse.ts `frameText`).
 */
export function createReplyStreamReader(dialect: Dialect, status = 200): ReplyStreamReader {
  const texts: string[] = [];
  let decoder: InstanceType<typeof TextDecoder> | undefined;
  let reply: CanonicalReply | undefined;
  return {
    push(chunk) {
      if (reply) return;
      if (typeof chunk === "string") {
        texts.push(chunk);
        return;
      }
      decoder ??= new TextDecoder("utf-8", { fatal: false });
      texts.push(decoder.decode(chunk, { stream: true }));
    },
    end() {
      if (decoder) texts.push(decoder.decode());
      reply ??= readStreamText(dialect, status, texts.join(""));
      return reply;
    },
  };
}

/** Read a reply from its status and whole body. */
export function readReply(dialect: Dialect, wire: WireReply, mode: Mode): CanonicalReply {
  if (mode === "non-stream") return readBody(dialect, wire.status, wire.body);
  return readStreamText(dialect, wire.status, wire.body);
}

/** Read a reply from the reads as they came off the socket (decoded incrementally). */
export function readReplyChunks(
  dialect: Dialect,
  chunks: readonly Uint8Array[],
  status: number,
  mode: Mode,
): CanonicalReply {
  if (mode === "non-stream") {
    const decoder = new TextDecoder();
    const body = chunks.map((c) => decoder.decode(c, { stream: true })).join("") + decoder.decode();
    return readBody(dialect, status, body);
  }
  const reader = createReplyStreamReader(dialect, status);
  for (const chunk of chunks) reader.push(chunk);
  return reader.end();
}
