/**
 * The recorder: every record kept in memory for `records()` and, when a file is given,
 * appended to it as one JSONL line. Lines are queued in arrival order and, once per turn of
 * the event loop, handed to one append stream as a single write; the stream writes in order
 * and batches what queues while a write is in flight, so lines never tear or interleave.
 * `close()` resolves after the last queued line reached the file.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import type { MockRecord } from "./record.ts";

/**
 * The line of a record whose reply body is given pre-serialized: everything before
 * `reply.body`, the body, and the rest. `reply` is the record's last key and `body`,
 * `bodyEncoding` the reply's last two (traffic.ts builds them so), which is what makes the
 * joined parts byte-equal to `JSON.stringify(record)`; when that does not hold, undefined.
 */
export function recordLineParts(
  record: MockRecord,
  bodyJson: Buffer,
): [string, Buffer, string] | undefined {
  const keys = Object.keys(record);
  const replyKeys = Object.keys(record.reply);
  if (
    keys[keys.length - 1] !== "reply" ||
    replyKeys[replyKeys.length - 2] !== "body" ||
    replyKeys[replyKeys.length - 1] !== "bodyEncoding"
  ) {
    return undefined;
  }
  const { body: _body, bodyEncoding, ...replyHead } = record.reply;
  const head = JSON.stringify({ ...record, reply: replyHead });
  // head ends with the reply's and the record's closing braces.
  return [
    `${head.slice(0, -2)},"body":`,
    bodyJson,
    `,"bodyEncoding":${JSON.stringify(bodyEncoding)}}}\n`,
  ];
}

export interface RecordFilter {
  nonce?: string;
  /** Only records with `seq` greater than this. */
  since?: number;
}

/** Below this a reply body is cheaper to serialize with the rest of the record. */
const SPLICE_FROM_BYTES = 2048;
/** Queued lines are written at once past this size, without waiting for the turn's end. */
const FLUSH_AT_BYTES = 1024 * 1024;

export class Recorder {
  readonly #records: MockRecord[] = [];
  readonly #stream: WriteStream | undefined;
  #seq = 0;
  #failure: Error | undefined;
  #closed: Promise<void> | undefined;
  #pending: (string | Buffer)[] = [];
  #pendingBytes = 0;
  #flushQueued = false;

  constructor(readonly file?: string) {
    if (file) {
      this.#stream = createWriteStream(file, { flags: "a" });
      // A write failure (disk full, file removed) must not crash the mock mid-request;
      // it is kept and surfaced by health() and close().
      this.#stream.on("error", (error) => {
        this.#failure = error;
      });
    }
  }

  /** The next sequence number; assigned at arrival so order of arrival is kept. */
  nextSeq(): number {
    this.#seq += 1;
    return this.#seq;
  }

  /**
   * Keep the record and queue its line. Lines queued in one turn of the event loop go to
   * the stream as one write (one string, or one corked `writev` when a part is a Buffer):
   * a write per line cost about 20 µs of CPU each, mostly in the file system calls.
   * `replyBodyJson`, when given, is `JSON.stringify(record.reply.body)` already encoded
   * (reply-bytes.ts); a large one is spliced into the line instead of escaped again.
   */
  add(record: MockRecord, replyBodyJson?: Buffer): void {
    this.#records.push(record);
    if (!this.#stream || this.#closed || this.#failure) return;
    const parts =
      replyBodyJson && replyBodyJson.length >= SPLICE_FROM_BYTES
        ? recordLineParts(record, replyBodyJson)
        : undefined;
    if (parts) {
      this.#pending.push(...parts);
      this.#pendingBytes += parts[1].length;
    } else {
      const line = `${JSON.stringify(record)}\n`;
      this.#pending.push(line);
      this.#pendingBytes += line.length;
    }
    if (this.#pendingBytes >= FLUSH_AT_BYTES) this.#flush();
    else if (!this.#flushQueued) {
      this.#flushQueued = true;
      setImmediate(() => this.#flush());
    }
  }

  /** Hand every queued line to the stream, in order. */
  #flush(): void {
    this.#flushQueued = false;
    const parts = this.#pending;
    if (parts.length === 0 || !this.#stream || this.#failure) return;
    this.#pending = [];
    this.#pendingBytes = 0;
    const stream = this.#stream;
    if (parts.every((p) => typeof p === "string")) {
      stream.write(parts.join(""));
      return;
    }
    stream.cork();
    for (const part of parts) stream.write(part);
    stream.uncork();
  }

  list(filter: RecordFilter = {}): MockRecord[] {
    const since = filter.since ?? 0;
    return this.#records
      .filter((r) => r.seq > since && (filter.nonce === undefined || r.nonce === filter.nonce))
      .sort((a, b) => a.seq - b.seq);
  }

  get count(): number {
    return this.#records.length;
  }

  get failure(): Error | undefined {
    return this.#failure;
  }

  /** Forget records in memory (the file keeps them: it is the log of the whole run). */
  clear(): void {
    this.#records.length = 0;
  }

  /** Flush every queued line and close the file. Safe to call more than once. */
  close(): Promise<void> {
    this.#closed ??= new Promise<void>((resolve, reject) => {
      const stream = this.#stream;
      if (!stream || stream.destroyed) {
        resolve();
        return;
      }
      // Lines queued in this turn are not lost: they go out before the end.
      this.#flush();
      stream.end(() => (this.#failure ? reject(this.#failure) : resolve()));
    });
    return this.#closed;
  }
}
