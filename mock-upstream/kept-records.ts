/**
 * The recorder's kept records, oldest first, as columns: typed arrays for the numbers and two
 * arrays for the buffers, in a ring addressed by ordinal (how many records were kept before
 * this one). A record is no object of its own: kept as objects, each record and its nonce's
 * string (about 160 bytes) lived through two scavenges into the old generation, where every
 * major collection marked 100,000 of them under load (docs/mock.md, Performance). A nonce of
 * the usual shape is kept as its 16 hex digits in two 32-bit halves; another is kept as text.
 *
 * A record's line is `slab[start, end)`, or, when its reply body is shared with other
 * records (record-line.ts), `slab[start, bodyAt)`, `body`, `slab[bodyAt, end)`.
 */
import { isNonce, nonceFromHalves, nonceHalf } from "../dialects/nonce.ts";
import { ownCopy } from "./line-slab.ts";

const FIRST_CAPACITY = 1024;

/** A kept line's bytes: a record forgotten after this was taken keeps them (see Recorder). */
export interface LinePlace {
  slab: Buffer;
  start: number;
  bodyAt: number;
  end: number;
  body: Buffer | undefined;
}

/** The line at `place` as text without its closing `\n`. */
export function placeJson({ slab, start, bodyAt, end, body }: LinePlace): string {
  if (!body) return slab.toString("utf8", start, end - 1);
  return (
    slab.toString("utf8", start, bodyAt) +
    body.toString("utf8") +
    slab.toString("utf8", bodyAt, end - 1)
  );
}

/** How a record holds its nonce. */
const NO_NONCE = 0;
const PACKED_NONCE = 1;
const TEXT_NONCE = 2;

export class KeptRecords {
  /** A power of two; ordinal `o` is at `o % #capacity`. */
  #capacity = 0;
  /** The oldest kept record's ordinal, and the next one's. */
  #first = 0;
  #next = 0;
  #seq = new Float64Array(0);
  #start = new Float64Array(0);
  #bodyAt = new Float64Array(0);
  #end = new Float64Array(0);
  #size = new Float64Array(0);
  #nonceKind = new Uint8Array(0);
  #nonceHigh = new Int32Array(0);
  #nonceLow = new Int32Array(0);
  #slab: (Buffer | undefined)[] = [];
  #body: (Buffer | undefined)[] = [];
  /** Nonces of another shape, by ordinal (none from a mock's own traffic). */
  readonly #textNonces = new Map<number, string>();

  /** The oldest kept record's ordinal (equal to `next` when none is kept). */
  get first(): number {
    return this.#first;
  }

  /** The ordinal the next record gets. */
  get next(): number {
    return this.#next;
  }

  get count(): number {
    return this.#next - this.#first;
  }

  /** Keep a record as the newest; its ordinal. */
  push(
    seq: number,
    nonce: string | undefined,
    slab: Buffer,
    start: number,
    bodyAt: number,
    end: number,
    body: Buffer | undefined,
    size: number,
  ): number {
    if (this.count === this.#capacity) this.#grow();
    const ordinal = this.#next;
    const at = ordinal % this.#capacity;
    this.#seq[at] = seq;
    this.#start[at] = start;
    this.#bodyAt[at] = bodyAt;
    this.#end[at] = end;
    this.#size[at] = size;
    this.#slab[at] = slab;
    this.#body[at] = body;
    if (nonce === undefined) this.#nonceKind[at] = NO_NONCE;
    else if (isNonce(nonce)) {
      this.#nonceKind[at] = PACKED_NONCE;
      this.#nonceHigh[at] = nonceHalf(nonce, 0);
      this.#nonceLow[at] = nonceHalf(nonce, 1);
    } else {
      this.#nonceKind[at] = TEXT_NONCE;
      // A nonce found in a request is a slice of the request's text and would keep it alive.
      this.#textNonces.set(ordinal, ownCopy(nonce));
    }
    this.#next += 1;
    return ordinal;
  }

  /** Forget the oldest record (there is one). */
  shift(): void {
    const at = this.#first % this.#capacity;
    this.#slab[at] = undefined;
    this.#body[at] = undefined;
    if (this.#nonceKind[at] === TEXT_NONCE) this.#textNonces.delete(this.#first);
    this.#first += 1;
  }

  /** Forget every record; ordinals go on from where they were. */
  clear(): void {
    this.#first = this.#next;
    this.#capacity = 0;
    this.#grow();
    this.#textNonces.clear();
  }

  seq(ordinal: number): number {
    return this.#seq[ordinal % this.#capacity] as number;
  }

  size(ordinal: number): number {
    return this.#size[ordinal % this.#capacity] as number;
  }

  slab(ordinal: number): Buffer | undefined {
    return this.#slab[ordinal % this.#capacity];
  }

  nonce(ordinal: number): string | undefined {
    const at = ordinal % this.#capacity;
    const kind = this.#nonceKind[at];
    if (kind === PACKED_NONCE) {
      return nonceFromHalves(this.#nonceHigh[at] as number, this.#nonceLow[at] as number);
    }
    return kind === TEXT_NONCE ? this.#textNonces.get(ordinal) : undefined;
  }

  /** Where the record's line is: read later (a streaming reader), it stays readable. */
  place(ordinal: number): LinePlace {
    const at = ordinal % this.#capacity;
    return {
      slab: this.#slab[at] as Buffer,
      start: this.#start[at] as number,
      bodyAt: this.#bodyAt[at] as number,
      end: this.#end[at] as number,
      body: this.#body[at],
    };
  }

  /** The record's line as text without its closing `\n`: exactly `JSON.stringify(record)`. */
  json(ordinal: number): string {
    return placeJson(this.place(ordinal));
  }

  /** Twice the room (at least FIRST_CAPACITY), the kept records moved to their new places. */
  #grow(): void {
    const old = this.#capacity;
    const capacity = Math.max(FIRST_CAPACITY, old * 2);
    const move = <T extends Float64Array | Int32Array | Uint8Array>(column: T, fresh: T): T => {
      for (let o = this.#first; o < this.#next; o++)
        fresh[o % capacity] = column[o % old] as number;
      return fresh;
    };
    const moveRefs = (column: (Buffer | undefined)[]) => {
      const fresh = new Array<Buffer | undefined>(capacity).fill(undefined);
      for (let o = this.#first; o < this.#next; o++) fresh[o % capacity] = column[o % old];
      return fresh;
    };
    this.#seq = move(this.#seq, new Float64Array(capacity));
    this.#start = move(this.#start, new Float64Array(capacity));
    this.#bodyAt = move(this.#bodyAt, new Float64Array(capacity));
    this.#end = move(this.#end, new Float64Array(capacity));
    this.#size = move(this.#size, new Float64Array(capacity));
    this.#nonceKind = move(this.#nonceKind, new Uint8Array(capacity));
    this.#nonceHigh = move(this.#nonceHigh, new Int32Array(capacity));
    this.#nonceLow = move(this.#nonceLow, new Int32Array(capacity));
    this.#slab = moveRefs(this.#slab);
    this.#body = moveRefs(this.#body);
    this.#capacity = capacity;
  }
}
