/**
 * The recorder: every record kept in memory for `records()` and, when a file is given,
 * appended to it as one JSONL line. One append stream carries every line, each line one
 * `write()` call, so lines queue in order and never tear or interleave; while a write is in
 * flight the stream batches the queued lines into one `writev`. `close()` resolves after
 * the last queued line reached the file.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import type { MockRecord } from "./record.ts";

export interface RecordFilter {
  nonce?: string;
  /** Only records with `seq` greater than this. */
  since?: number;
}

export class Recorder {
  readonly #records: MockRecord[] = [];
  readonly #stream: WriteStream | undefined;
  #seq = 0;
  #failure: Error | undefined;
  #closed: Promise<void> | undefined;

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

  add(record: MockRecord): void {
    this.#records.push(record);
    if (this.#stream && !this.#closed && !this.#failure) {
      this.#stream.write(`${JSON.stringify(record)}\n`);
    }
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
      stream.end(() => (this.#failure ? reject(this.#failure) : resolve()));
    });
    return this.#closed;
  }
}
