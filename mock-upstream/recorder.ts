/**
 * The recorder: every record appended to the record file (record-file.ts) when one is
 * given, and the newest ones kept in memory for `records()` and the control API. Memory
 * keeps each record as its JSONL line (record-line.ts), encoded as UTF-8 in slabs
 * (line-slab.ts) whose bytes are also what the file is written from, in a ring: past
 * `maxRecords` records or `maxBytes` of line bytes the oldest are forgotten (the file keeps
 * everything), so a mock that runs all night holds a bounded amount and its garbage
 * collections stay short. `close()` resolves after the last queued line reached the file.
 */
import { LineSlab } from "./line-slab.ts";
import type { MockRecord } from "./record.ts";
import { RecordFile } from "./record-file.ts";
import { type RecordLine, recordLine } from "./record-line.ts";
import type { KeptLine, RecordRing } from "./record-ring.ts";
import { PackedRecordRing } from "./record-ring-packed.ts";
import { writeTrafficLine } from "./traffic-line-bytes.ts";
import type { TrafficLine } from "./traffic-record.ts";

export { recordLineParts } from "./record-line.ts";

export interface RecordFilter {
  nonce?: string;
  /** Only records with `seq` greater than this. */
  since?: number;
}

export interface RecorderLimits {
  /** Records kept in memory; older ones are forgotten (default 100,000). */
  maxRecords?: number;
  /** Line bytes (UTF-8) kept in memory (default 256 MiB). */
  maxBytes?: number;
}

export const DEFAULT_MAX_RECORDS = 100_000;
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

export interface RecorderStats {
  /** Records kept in memory. */
  count: number;
  /** Records forgotten from memory to stay under the limits (the file has them). */
  evicted: number;
  /** Why the record file stopped being written, if it did. */
  failure: Error | undefined;
}

/** The record's line as text without its closing `\n`: exactly `JSON.stringify(record)`. */
function keptJson(kept: KeptLine): string {
  const { slab, start, end, body } = kept;
  if (!body) return slab.toString("utf8", start, end - 1);
  return (
    slab.toString("utf8", start, kept.bodyAt) +
    body.toString("utf8") +
    slab.toString("utf8", kept.bodyAt, end - 1)
  );
}

function keptRecord(kept: KeptLine): MockRecord {
  return JSON.parse(keptJson(kept)) as MockRecord;
}

export class Recorder {
  /**
   * The kept records, oldest first, with an index by nonce: a sweep asks for one attempt's
   * nonce after every attempt, and scanning every kept record for it grew with the run.
   * Packed in typed arrays (record-ring-packed.ts; record-ring.ts is the plain form).
   */
  readonly #ring: RecordRing = new PackedRecordRing();
  readonly #slab = new LineSlab();
  #evicted = 0;
  #recorded = 0;
  #seq = 0;
  readonly #file: RecordFile | undefined;
  readonly #maxRecords: number;
  readonly #maxBytes: number;
  #closed: Promise<void> | undefined;

  constructor(
    readonly file?: string,
    limits: RecorderLimits = {},
  ) {
    this.#file = file ? new RecordFile(file) : undefined;
    this.#maxRecords = Math.max(1, limits.maxRecords ?? DEFAULT_MAX_RECORDS);
    this.#maxBytes = Math.max(1, limits.maxBytes ?? DEFAULT_MAX_BYTES);
  }

  /** The next sequence number; assigned at arrival so order of arrival is kept. */
  nextSeq(): number {
    this.#seq += 1;
    return this.#seq;
  }

  /**
   * Keep the record and queue its line for the file. `replyBodyJson`, when given, is
   * `JSON.stringify(record.reply.body)` already encoded (reply-bytes.ts); a large one is
   * spliced into the line instead of escaped again.
   */
  add(record: MockRecord, replyBodyJson?: Buffer): void {
    this.addLine(record.seq, record.nonce, recordLine(record, replyBodyJson));
  }

  /**
   * Keep a traffic record, its line written straight into the slab (traffic-line-bytes.ts;
   * `addLine(seq, nonce, renderTrafficLine(line))` is the plain way, the same bytes).
   */
  addTraffic(line: TrafficLine): void {
    const at = writeTrafficLine(line, this.#slab);
    this.#keep(line.seq, line.nonce, at.slab, at.start, at.bodyAt, at.end, at.body, at.size);
  }

  /** Keep a record given as its line (traffic-record.ts), and queue the line for the file. */
  addLine(seq: number, nonce: string | undefined, line: RecordLine): void {
    // The line's bytes, written into the slab (a shared reply body stays where it is).
    const slab = this.#slab;
    let start: number;
    let bodyAt: number;
    let end: number;
    let body: Buffer | undefined;
    if (typeof line === "string") {
      slab.reserve(line);
      start = slab.used;
      end = slab.write(line);
      bodyAt = end;
    } else {
      const [head, shared, tail] = line;
      slab.reserve(head, tail);
      start = slab.used;
      bodyAt = slab.write(head);
      end = slab.write(tail);
      body = shared;
    }
    const size = end - start + (body?.length ?? 0);
    this.#keep(seq, nonce, slab.slab, start, bodyAt, end, body, size);
  }

  #keep(
    seq: number,
    nonce: string | undefined,
    bytes: Buffer,
    start: number,
    bodyAt: number,
    end: number,
    body: Buffer | undefined,
    size: number,
  ): void {
    this.#recorded += 1;
    this.#ring.push(seq, nonce, bytes, start, bodyAt, end, body, size);
    this.#evictOverLimits();
    const file = this.#file;
    if (!file || this.#closed) return;
    if (!body) file.appendRange(bytes, start, end);
    else {
      file.appendRange(bytes, start, bodyAt);
      file.appendBuffer(body);
      file.appendRange(bytes, bodyAt, end);
    }
  }

  #evictOverLimits(): void {
    const ring = this.#ring;
    // The newest record always stays, however large.
    while (ring.count > 1 && (ring.count > this.#maxRecords || ring.keptSize > this.#maxBytes)) {
      ring.dropOldest();
      this.#evicted += 1;
    }
  }

  /** The kept records that pass the filter, in `seq` order. */
  #select(filter: RecordFilter): KeptLine[] {
    return this.#ring.select(filter.nonce, filter.since ?? 0);
  }

  /**
   * Run `fn(a, b)` once this recorder's lines so far are in the file (at the end of the turn;
   * at once without a file). The mock sends each reply this way, after its record.
   */
  afterRecorded<A, B>(fn: (a: A, b: B) => void, a: A, b: B): void {
    if (this.#file && !this.#closed) this.#file.afterWrite(fn, a, b);
    else fn(a, b);
  }

  /** Write the queued lines now (a reply sent outside `afterRecorded` waits for this). */
  flush(): void {
    this.#file?.flush();
  }

  /** Whether the record file ended inside a line when it was opened (record-file.ts). */
  get endedTornLine(): boolean {
    return this.#file?.endedTornLine ?? false;
  }

  /**
   * `listJson(filter)` in pieces of about `chunkChars` characters, so a reader of 100,000
   * records costs one piece of memory at a time, not the whole list as one string.
   */
  *listJsonChunks(filter: RecordFilter = {}, chunkChars = 1024 * 1024): Generator<string> {
    const selected = this.#select(filter);
    let piece = "[";
    for (let i = 0; i < selected.length; i++) {
      piece += (i === 0 ? "" : ",") + keptJson(selected[i] as KeptLine);
      if (piece.length >= chunkChars) {
        yield piece;
        piece = "";
      }
    }
    yield `${piece}]`;
  }

  /** Fresh copies of the kept records that pass the filter, in `seq` order. */
  list(filter: RecordFilter = {}): MockRecord[] {
    return this.#select(filter).map(keptRecord);
  }

  /** `JSON.stringify(list(filter))`, joined from the kept lines without parsing them. */
  listJson(filter: RecordFilter = {}): string {
    return `[${this.#select(filter).map(keptJson).join(",")}]`;
  }

  /** Records made since start, kept, evicted or cleared alike. */
  get recorded(): number {
    return this.#recorded;
  }

  /** Records kept in memory. */
  get count(): number {
    return this.#ring.count;
  }

  /** Records forgotten from memory to stay under the limits (the file has them). */
  get evicted(): number {
    return this.#evicted;
  }

  get failure(): Error | undefined {
    return this.#file?.failure;
  }

  stats(): RecorderStats {
    return { count: this.count, evicted: this.evicted, failure: this.failure };
  }

  /** Forget records in memory (the file keeps them: it is the log of the whole run). */
  clear(): void {
    this.#ring.clear();
  }

  /** Write every queued line and close the file. Safe to call more than once. */
  close(): Promise<void> {
    if (!this.#closed) {
      this.#file?.close();
      const failure = this.failure;
      this.#closed = failure ? Promise.reject(failure) : Promise.resolve();
    }
    return this.#closed;
  }
}
