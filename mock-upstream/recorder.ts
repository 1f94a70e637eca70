/**
 * The recorder: every record appended to the record file (record-file.ts) when one is
 * given, and the newest ones kept in memory for `records()` and the control API. Memory
 * keeps each record as its JSONL line (record-line.ts), encoded as UTF-8 in slabs
 * (line-slab.ts) whose bytes are also what the file is written from, in a ring: past
 * `maxRecords` records or `maxBytes` of line bytes the oldest are forgotten (the file keeps
 * everything), so a mock that runs all night holds a bounded amount and its garbage
 * collections stay short. `close()` resolves after the last queued line reached the file.
 */
import { EndOfTurn } from "./end-of-turn.ts";
import { KeptRecords, type LinePlace, placeJson } from "./kept-records.ts";
import { LineMemo } from "./line-memo.ts";
import { LineSlab } from "./line-slab.ts";
import { NonceIndex } from "./nonce-index.ts";
import type { MockRecord } from "./record.ts";
import { RecordFile } from "./record-file.ts";
import { type RecordLine, recordLine } from "./record-line.ts";
import { renderTrafficLine, type TrafficLine } from "./traffic-record.ts";

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

/** Emptied slabs held while they cannot be reused yet; more are left to the collector. */
const EMPTIED_SLABS_HELD = 4;

export interface RecorderStats {
  /** Records kept in memory. */
  count: number;
  /** Records forgotten from memory to stay under the limits (the file has them). */
  evicted: number;
  /** Why the record file stopped being written, if it did. */
  failure: Error | undefined;
}

export class Recorder {
  /** Oldest first, by ordinal (kept-records.ts). */
  readonly #kept = new KeptRecords();
  /**
   * The kept records by nonce (nonce-index.ts), brought up to date when a nonce is asked
   * for: the records from ordinal `#indexedTo` on are not in it yet. A load test that never
   * asks pays nothing per request for it (kept up to date, a map of 100,000 fresh nonces
   * cost about a microsecond a request).
   */
  readonly #nonces = new NonceIndex();
  #indexedTo = 0;
  readonly #slab = new LineSlab();
  /** Slabs whose records are all forgotten, waiting to be reused (`#reuseEmptied`). */
  readonly #emptiedSlabs: Buffer[] = [];
  /** `listJsonChunks` readers between pieces. */
  #readers = 0;
  #keptSize = 0;
  #evicted = 0;
  #recorded = 0;
  #seq = 0;
  readonly #file: RecordFile | undefined;
  readonly #maxRecords: number;
  readonly #maxBytes: number;
  #closed: Promise<void> | undefined;
  readonly #lineMemo = new LineMemo();
  /** Without a record file (or once it is closed), replies still wait for the turn's end. */
  readonly #turn = new EndOfTurn();

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

  addTraffic(line: TrafficLine): void {
    this.addLine(line.seq, line.nonce, renderTrafficLine(line, this.#lineMemo));
  }

  /** Keep a record given as its line (traffic-record.ts), and queue the line for the file. */
  addLine(seq: number, nonce: string | undefined, line: RecordLine): void {
    if (this.#emptiedSlabs.length > 0) this.#reuseEmptied();
    // The line's bytes go into the slab; a shared reply body stays where it is.
    const lineSlab = this.#slab;
    const whole = typeof line === "string";
    const head = whole ? line : line[0];
    const tail = whole ? "" : line[2];
    const body = whole ? undefined : line[1];
    lineSlab.reserve(head, tail);
    const slab = lineSlab.slab;
    const start = lineSlab.used;
    const bodyAt = lineSlab.write(head);
    const end = whole ? bodyAt : lineSlab.write(tail);
    const size = end - start + (body?.length ?? 0);
    this.#kept.push(seq, nonce, slab, start, bodyAt, end, body, size);
    this.#recorded += 1;
    this.#keptSize += size;
    this.#evictOverLimits();
    const file = this.#file;
    if (!file || this.#closed) return;
    if (!body) file.appendRange(slab, start, end);
    else {
      file.appendRange(slab, start, bodyAt);
      file.appendBuffer(body);
      file.appendRange(slab, bodyAt, end);
    }
  }

  #evictOverLimits(): void {
    const kept = this.#kept;
    // The newest record always stays, however large.
    while (kept.count > 1 && (kept.count > this.#maxRecords || this.#keptSize > this.#maxBytes)) {
      const oldest = kept.first;
      const slab = kept.slab(oldest);
      if (oldest < this.#indexedTo) {
        const nonce = kept.nonce(oldest);
        if (nonce !== undefined) this.#nonces.forget(oldest, nonce);
      }
      this.#keptSize -= kept.size(oldest);
      kept.shift();
      this.#evicted += 1;
      // Slabs are filled in the ring's order, so a slab the next record is not in is empty.
      if (slab && kept.slab(kept.first) !== slab) this.#emptied(slab);
    }
  }

  /**
   * A slab whose every record is forgotten is reused once nothing else reads it: the record
   * file has written what was queued from it (its queue is empty at the start of a turn) and
   * no reader is streaming records (`listJsonChunks` between its pieces).
   */
  #emptied(slab: Buffer): void {
    if (this.#emptiedSlabs.length < EMPTIED_SLABS_HELD) this.#emptiedSlabs.push(slab);
  }

  #reuseEmptied(): void {
    if (this.#readers > 0 || this.#file?.queued) return;
    for (const slab of this.#emptiedSlabs) this.#slab.reuse(slab);
    this.#emptiedSlabs.length = 0;
  }

  /** Bring the nonce index up to date: the records kept since it last was. */
  #indexNewest(): void {
    const kept = this.#kept;
    for (let o = Math.max(this.#indexedTo, kept.first); o < kept.next; o++) {
      const nonce = kept.nonce(o);
      if (nonce !== undefined) this.#nonces.add(o, nonce);
    }
    this.#indexedTo = kept.next;
  }

  /** The ordinals of the kept records that pass the filter, in `seq` order. */
  #select(filter: RecordFilter): number[] {
    const kept = this.#kept;
    const since = filter.since ?? 0;
    const nonce = filter.nonce;
    if (nonce !== undefined && this.#indexedTo < kept.next) this.#indexNewest();
    const list = nonce === undefined ? undefined : this.#nonces.list(nonce);
    if (nonce !== undefined && !list) return [];
    // The ring from its first record, or the nonce's own list from its head: walked in place.
    const from = list ? list.head : kept.first;
    const to = list ? list.items.length : kept.next;
    const out: number[] = [];
    let sorted = true;
    let lastSeq = -1;
    for (let i = from; i < to; i++) {
      const ordinal = list ? (list.items[i] as number) : i;
      const seq = kept.seq(ordinal);
      if (seq <= since) continue;
      if (lastSeq > seq) sorted = false;
      lastSeq = seq;
      out.push(ordinal);
    }
    // Records are kept when their reply is planned, which can be out of arrival order.
    if (!sorted) out.sort((a, b) => kept.seq(a) - kept.seq(b));
    return out;
  }

  /**
   * Run `fn(a, b)` at the end of the turn, once this recorder's lines so far are in the file
   * (end-of-turn.ts). The mock sends each reply this way, after its record.
   */
  afterRecorded<A, B>(fn: (a: A, b: B) => void, a: A, b: B): void {
    if (this.#file && !this.#closed) this.#file.afterWrite(fn, a, b);
    else this.#turn.add(fn, a, b);
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
    // Records selected here may be forgotten while the reader waits between pieces: where
    // their lines are is taken now, and their slabs must not be written again until it is
    // done (or gone: `return()` ends it too).
    const selected = this.#select(filter).map((o) => this.#kept.place(o));
    this.#readers += 1;
    try {
      let piece = "[";
      for (let i = 0; i < selected.length; i++) {
        piece += (i === 0 ? "" : ",") + placeJson(selected[i] as LinePlace);
        if (piece.length >= chunkChars) {
          yield piece;
          piece = "";
        }
      }
      yield `${piece}]`;
    } finally {
      this.#readers -= 1;
    }
  }

  /** Fresh copies of the kept records that pass the filter, in `seq` order. */
  list(filter: RecordFilter = {}): MockRecord[] {
    return this.#select(filter).map((o) => JSON.parse(this.#kept.json(o)) as MockRecord);
  }

  /** `JSON.stringify(list(filter))`, joined from the kept lines without parsing them. */
  listJson(filter: RecordFilter = {}): string {
    return `[${this.#select(filter)
      .map((o) => this.#kept.json(o))
      .join(",")}]`;
  }

  /** Records made since start, kept, evicted or cleared alike. */
  get recorded(): number {
    return this.#recorded;
  }

  /** Records kept in memory. */
  get count(): number {
    return this.#kept.count;
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
    this.#kept.clear();
    this.#nonces.clear();
    this.#indexedTo = this.#kept.next;
    this.#keptSize = 0;
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
