/**
 * Traffic records on their way to the recorder thread (record-thread.ts): the parts of each
 * record's line (traffic-record.ts `TrafficLine`) as length-prefixed text, copied into a
 * buffer that is handed over whole (a transfer, not a copy) with a batch of records.
 * Measured on this machine, posting the same parts as arrays and objects cost the main
 * thread about 8 µs per record in V8's serializer, more than rendering the line itself;
 * posting them as one string about 7 ns per character; and writing each field into a
 * buffer with its own call about as much as the serializer. Joining a record's parts and
 * writing them with one call is a native copy. The thread reads the parts back and renders the
 * very same line with the same function.
 *
 * A field is `~` (undefined), `=` (the same text as this field had in the record before), or
 * `<length>:<text>`, the length in UTF-16 units, so any text goes through unescaped. A list
 * of pairs (headers) is `^` (the same list as the record before had there) or `<count>;`
 * and each name and value as `<length>:<text>`. The
 * batch travels as UTF-16, so every JavaScript string arrives unchanged (UTF-8 would turn a
 * lone surrogate into U+FFFD). Numbers and booleans travel as their decimal text and `1`/`0`.
 * Most of a record repeats the one before it (method, path, most headers, dialect, model,
 * the decision, the reply headers; a staged reply's whole body): sent as `=`, a field costs
 * the main thread one comparison. Both sides see every record in order, batch after batch,
 * and keep the last value of each field by its position in the record.
 */
import type { RecordReply } from "./record.ts";
import { ReplyBytes } from "./reply-bytes.ts";
import type { TrafficLine } from "./traffic-record.ts";

type Pairs = readonly (readonly [string, string])[];

/** A batch of records as it is handed over: the first `length` bytes of `buffer`. */
export interface EncodedBatch {
  buffer: ArrayBuffer;
  length: number;
}

const INITIAL_BYTES = 256 * 1024;

/** `<n>:` for the lengths most fields have, made once rather than per field. */
const LENGTH_PREFIXES = Array.from({ length: 1024 }, (_, n) => `${n}:`);

function lengthPrefix(text: string): string {
  return LENGTH_PREFIXES[text.length] ?? `${text.length}:`;
}

/**
 * The records not yet handed over. Each record's parts are joined and copied into the
 * batch's buffer at once, outside the JavaScript heap: parts kept until the batch is taken
 * would live through garbage collections and be copied by them (measured: keeping a
 * 100 ms batch as strings cost the main thread more than it saved).
 */
export class RecordBatch {
  #parts: string[] = [];
  #bytes = Buffer.from(new ArrayBuffer(INITIAL_BYTES));
  #at = 0;
  /** Each field's text in the record before, by position; kept from batch to batch. */
  readonly #last: (string | undefined)[] = [];
  /** Each list's pairs in the record before, by position (see `pairs`). */
  readonly #lastLists: (Pairs | undefined)[] = [];
  #position = 0;
  records = 0;

  /** Bytes of the batch so far. */
  get size(): number {
    return this.#at;
  }

  field(text: string | undefined): void {
    const position = this.#position++;
    if (text === undefined) this.#parts.push("~");
    else if (text === this.#last[position]) this.#parts.push("=");
    else this.#parts.push(lengthPrefix(text), text);
    this.#last[position] = text;
  }

  /**
   * A list of pairs: `^` when it is the list before, name for name and value for value
   * (a client sends the same headers all run long, and a cached plan the same reply
   * headers), else its length and each name and value as fields. The positions after a
   * list do not depend on its length, so a `^` list keeps the fields after it in step.
   */
  pairs(list: Pairs): void {
    const slot = this.#position++;
    const last = this.#lastLists[slot];
    this.#lastLists[slot] = list;
    if (last !== undefined && samePairs(list, last)) {
      this.#parts.push("^");
      return;
    }
    this.#parts.push(String(list.length), ";");
    for (const [name, value] of list) {
      this.#parts.push(lengthPrefix(name), name, lengthPrefix(value), value);
    }
  }

  #lastReply: RecordReply | undefined;
  #lastReplyJson = "";

  /**
   * A record's `reply` as JSON. Most requests share one reply object (traffic.ts's default
   * decision), known by identity: it is serialized once, not per record.
   */
  replyJson(reply: RecordReply): string {
    if (reply !== this.#lastReply) {
      this.#lastReply = reply;
      this.#lastReplyJson = JSON.stringify(reply);
    }
    return this.#lastReplyJson;
  }

  /** Copy the parts given since the last call into the buffer, as one record. */
  endRecord(): void {
    const text = this.#parts.join("");
    this.#parts = [];
    this.#position = 0;
    const bytes = 2 * text.length;
    if (this.#at + bytes > this.#bytes.length) {
      const grown = Buffer.from(
        new ArrayBuffer(Math.max(2 * this.#bytes.length, this.#at + bytes)),
      );
      this.#bytes.copy(grown, 0, 0, this.#at);
      this.#bytes = grown;
    }
    this.#at += this.#bytes.write(text, this.#at, bytes, "utf16le");
    this.records += 1;
  }

  /** The batch (its buffer is transferable: the batch starts over with a new one). */
  take(): EncodedBatch {
    const taken = { buffer: this.#bytes.buffer as ArrayBuffer, length: this.#at };
    this.#bytes = Buffer.from(new ArrayBuffer(INITIAL_BYTES));
    this.#at = 0;
    this.records = 0;
    return taken;
  }
}

function samePairs(a: Pairs, b: Pairs): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as readonly [string, string];
    const y = b[i] as readonly [string, string];
    if (x[0] !== y[0] || x[1] !== y[1]) return false;
  }
  return true;
}

/** Append one record's parts to a batch. */
export function encodeTrafficLine(line: TrafficLine, out: RecordBatch): void {
  out.field(String(line.seq));
  out.field(line.receivedAt);
  out.field(line.method);
  out.field(line.path);
  out.field(line.query);
  out.pairs(line.headers);
  out.field(String(line.bodyBytes));
  out.field(line.bodyTruncated ? "1" : "0");
  out.field(line.rawBody);
  out.field(line.bodyEncoding);
  // The `json` text is most often the body's own text: sent once, marked by an empty field.
  out.field(line.jsonText !== undefined && line.jsonText === line.rawBody ? "" : line.jsonText);
  out.field(line.dialect);
  out.field(line.kind);
  out.field(line.nonce);
  out.field(line.model);
  out.field(line.stream ? "1" : "0");
  out.field(out.replyJson(line.reply));
  out.pairs(line.replyHeaders);
  out.field(line.replyBytes.bodyEncoding);
  out.field(line.replyBytes.body);
  out.endRecord();
}

/**
 * The reply bodies of the records read, as one `ReplyBytes` per text in a row, so the same
 * reply (a staged 236 KB stream answering every request) is JSON-escaped and encoded once
 * and its bytes shared by the lines that carry it, as on the main thread.
 */
export class ReplyBodies {
  #last: ReplyBytes | undefined;

  of(body: string, bodyEncoding: ReplyBytes["bodyEncoding"]): ReplyBytes {
    const last = this.#last;
    if (last && last.body === body && last.bodyEncoding === bodyEncoding) return last;
    this.#last = new ReplyBytes(body, bodyEncoding);
    return this.#last;
  }
}

/** Reads the fields of a batch in order; a malformed batch is a bug, and throws. */
class FieldReader {
  #at = 0;
  #position = 0;
  constructor(
    readonly text: string,
    /** Each field's text in the record before, by position (see RecordBatch). */
    readonly last: (string | undefined)[],
    /** Each list's pairs in the record before, by position (see RecordBatch.pairs). */
    readonly lastLists: ([string, string][] | undefined)[],
  ) {}

  get done(): boolean {
    return this.#at >= this.text.length;
  }

  /** The next record starts: positions count from its first field. */
  nextRecord(): void {
    this.#position = 0;
  }

  maybe(): string | undefined {
    const position = this.#position++;
    const mark = this.text[this.#at];
    if (mark === "~" || mark === "=") {
      this.#at += 1;
      const text = mark === "~" ? undefined : this.last[position];
      this.last[position] = text;
      return text;
    }
    const text = this.#prefixed();
    this.last[position] = text;
    return text;
  }

  /** `<length>:<text>` at the current offset. */
  #prefixed(): string {
    const colon = this.text.indexOf(":", this.#at);
    const length = colon < 0 ? Number.NaN : Number(this.text.slice(this.#at, colon));
    if (!Number.isInteger(length) || colon === this.#at) {
      throw new Error(`record batch: no field at offset ${this.#at}`);
    }
    const start = colon + 1;
    this.#at = start + length;
    if (this.#at > this.text.length) {
      throw new Error(`record batch: a field of ${length} runs past the end at offset ${start}`);
    }
    return this.text.slice(start, this.#at);
  }

  string(): string {
    const text = this.maybe();
    if (text === undefined) throw new Error(`record batch: missing field before ${this.#at}`);
    return text;
  }

  number(): number {
    return Number(this.string());
  }

  flag(): boolean {
    return this.string() === "1";
  }

  /** A list of pairs (RecordBatch.pairs): `^` for the list before, else `<count>;` and its texts. */
  pairs(): [string, string][] {
    const slot = this.#position++;
    if (this.text[this.#at] === "^") {
      this.#at += 1;
      const last = this.lastLists[slot];
      if (!last) throw new Error(`record batch: a repeated list with none before at ${this.#at}`);
      return last;
    }
    const semicolon = this.text.indexOf(";", this.#at);
    const count = semicolon < 0 ? Number.NaN : Number(this.text.slice(this.#at, semicolon));
    if (!Number.isInteger(count) || semicolon === this.#at) {
      throw new Error(`record batch: no list at offset ${this.#at}`);
    }
    this.#at = semicolon + 1;
    const out: [string, string][] = [];
    for (let i = 0; i < count; i++) out.push([this.#prefixed(), this.#prefixed()]);
    this.lastLists[slot] = out;
    return out;
  }
}

/** What a reader keeps from batch to batch (see RecordBatch). */
export class BatchReader {
  readonly bodies = new ReplyBodies();
  readonly last: (string | undefined)[] = [];
  readonly lastLists: ([string, string][] | undefined)[] = [];
}

export function decodeTrafficLines(
  batch: EncodedBatch,
  listener: string,
  memory: BatchReader,
): TrafficLine[] {
  const read = new FieldReader(
    Buffer.from(batch.buffer, 0, batch.length).toString("utf16le"),
    memory.last,
    memory.lastLists,
  );
  const lines: TrafficLine[] = [];
  while (!read.done) {
    read.nextRecord();
    const seq = read.number();
    const receivedAt = read.string();
    const method = read.string();
    const path = read.string();
    const query = read.string();
    const headers = read.pairs();
    const bodyBytes = read.number();
    const bodyTruncated = read.flag();
    const rawBody = read.string();
    const bodyEncoding = read.string() as TrafficLine["bodyEncoding"];
    const jsonText = read.maybe();
    const dialect = read.maybe() as TrafficLine["dialect"];
    const kind = read.string() as TrafficLine["kind"];
    const nonce = read.maybe();
    const model = read.maybe();
    const stream = read.flag();
    const reply = JSON.parse(read.string()) as RecordReply;
    const replyHeaders = read.pairs();
    const replyBodyEncoding = read.string() as ReplyBytes["bodyEncoding"];
    const replyBody = read.string();
    lines.push({
      seq,
      receivedAt,
      listener,
      method,
      path,
      query,
      headers,
      bodyBytes,
      bodyTruncated,
      rawBody,
      bodyEncoding,
      jsonText: jsonText === "" ? rawBody : jsonText,
      dialect,
      kind,
      nonce,
      model,
      stream,
      reply,
      replyHeaders,
      replyBytes: memory.bodies.of(replyBody, replyBodyEncoding),
    });
  }
  return lines;
}
