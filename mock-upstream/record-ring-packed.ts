/**
 * The recorder's memory of kept records in typed arrays: the fast path of record-ring.ts
 * (the plain reference, an object per record and a list per nonce), with the same answers
 * (record-ring.test.ts). Under load the plain ring's objects were what V8 had to trace: every
 * kept record (and with fresh nonces, every nonce's list and map entry) outlived two young
 * collections and was promoted, so the old generation grew with the request rate and was
 * marked again about once a second, its marking on V8's helper threads costing the mock
 * more than anything it does itself. Here a record is a slot in a ring of typed arrays, and
 * a nonce of the nonce's shape (`gc-` and 16 hex digits) is two 32-bit numbers in an
 * open-addressing table whose entries name the slots of its oldest and newest record, the
 * records of one nonce chained slot to slot. The only references kept per record are its
 * slab and its shared body, in two plain arrays. Measured in docs/mock.md ("Performance").
 */
import { ownCopy } from "./line-slab.ts";
import type { KeptLine, RecordRing } from "./record-ring.ts";

const NONE = -1;
/** `kind` of a slot: no nonce, a nonce of the nonce's shape (`hi`, `lo`), or another string. */
const NO_NONCE = 0;
const SHAPED = 1;
const OTHER = 2;

const MIN_SLOTS = 1024;

/** The 16 hex digits of a `gc-` nonce as two 32-bit numbers, or undefined for another string. */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}

let parsedHi = 0;
let parsedLo = 0;

/** Whether `nonce` is `gc-` and 16 lower-case hex digits; its value in `parsedHi/Lo`. */
function parseNonce(nonce: string): boolean {
  if (nonce.length !== 19 || !nonce.startsWith("gc-")) return false;
  let hi = 0;
  let lo = 0;
  for (let i = 3; i < 19; i++) {
    const v = hexValue(nonce.charCodeAt(i));
    if (v < 0) return false;
    if (i < 11) hi = hi * 16 + v;
    else lo = lo * 16 + v;
  }
  parsedHi = hi;
  parsedLo = lo;
  return true;
}

function hashOf(hi: number, lo: number, mask: number): number {
  let h = Math.imul(hi ^ Math.imul(lo, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 15;
  return h & mask;
}

/** Nonces to the slots of their oldest and newest kept record: linear probing, no tombstones. */
class NonceTable {
  #mask = MIN_SLOTS - 1;
  #count = 0;
  #hi = new Uint32Array(MIN_SLOTS);
  #lo = new Uint32Array(MIN_SLOTS);
  /** Slot of the nonce's oldest record; NONE marks an empty entry. */
  head = new Int32Array(MIN_SLOTS).fill(NONE);
  /** Slot of the nonce's newest record. */
  tail = new Int32Array(MIN_SLOTS);

  /** The entry of (hi, lo), or NONE. */
  find(hi: number, lo: number): number {
    const mask = this.#mask;
    for (let i = hashOf(hi, lo, mask); ; i = (i + 1) & mask) {
      if (this.head[i] === NONE) return NONE;
      if (this.#hi[i] === hi && this.#lo[i] === lo) return i;
    }
  }

  /** A new entry for (hi, lo), which has none, holding one record. */
  insert(hi: number, lo: number, slot: number): void {
    if ((this.#count + 1) * 2 > this.#mask + 1) this.#resize((this.#mask + 1) * 2);
    const mask = this.#mask;
    let i = hashOf(hi, lo, mask);
    while (this.head[i] !== NONE) i = (i + 1) & mask;
    this.#hi[i] = hi;
    this.#lo[i] = lo;
    this.head[i] = slot;
    this.tail[i] = slot;
    this.#count += 1;
  }

  /** Remove entry `i`, moving later entries of its probe run back so lookups still find them. */
  remove(i: number): void {
    const mask = this.#mask;
    this.head[i] = NONE;
    this.#count -= 1;
    let hole = i;
    for (let j = (i + 1) & mask; this.head[j] !== NONE; j = (j + 1) & mask) {
      const home = hashOf(this.#hi[j] as number, this.#lo[j] as number, mask);
      // The entry at j may move to the hole unless its home lies cyclically in (hole, j].
      const stays = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (stays) continue;
      this.#hi[hole] = this.#hi[j] as number;
      this.#lo[hole] = this.#lo[j] as number;
      this.head[hole] = this.head[j] as number;
      this.tail[hole] = this.tail[j] as number;
      this.head[j] = NONE;
      hole = j;
    }
  }

  /** Every entry's slots renumbered by `renumber` (the ring grew). */
  renumber(renumber: (slot: number) => number): void {
    for (let i = 0; i <= this.#mask; i++) {
      if (this.head[i] === NONE) continue;
      this.head[i] = renumber(this.head[i] as number);
      this.tail[i] = renumber(this.tail[i] as number);
    }
  }

  #resize(size: number): void {
    const [hi, lo, head, tail] = [this.#hi, this.#lo, this.head, this.tail];
    this.#mask = size - 1;
    this.#count = 0;
    this.#hi = new Uint32Array(size);
    this.#lo = new Uint32Array(size);
    this.head = new Int32Array(size).fill(NONE);
    this.tail = new Int32Array(size);
    for (let i = 0; i < head.length; i++) {
      if (head[i] === NONE) continue;
      this.insert(hi[i] as number, lo[i] as number, head[i] as number);
      this.tail[this.find(hi[i] as number, lo[i] as number)] = tail[i] as number;
    }
  }
}

export class PackedRecordRing implements RecordRing {
  /** Slots, a power of two; the ring's records are `count` slots from `#first`, wrapping. */
  #mask = -1;
  #first = 0;
  #count = 0;
  #keptSize = 0;
  #seq = new Float64Array(0);
  #start = new Int32Array(0);
  #bodyAt = new Int32Array(0);
  #end = new Int32Array(0);
  #size = new Float64Array(0);
  #kind = new Uint8Array(0);
  #hi = new Uint32Array(0);
  #lo = new Uint32Array(0);
  /** The next slot of the same nonce (NONE at its newest). */
  #next = new Int32Array(0);
  #slabs: (Buffer | undefined)[] = [];
  #bodies: (Buffer | undefined)[] = [];
  /** A nonce not of the nonce's shape, as given (never from traffic: the mock finds only shaped ones). */
  #other: (string | undefined)[] = [];
  #nonces = new NonceTable();

  get count(): number {
    return this.#count;
  }

  get keptSize(): number {
    return this.#keptSize;
  }

  push(
    seq: number,
    nonce: string | undefined,
    slab: Buffer,
    start: number,
    bodyAt: number,
    end: number,
    body: Buffer | undefined,
    size: number,
  ): void {
    if (this.#count === this.#mask + 1) this.#grow();
    const slot = (this.#first + this.#count) & this.#mask;
    this.#count += 1;
    this.#keptSize += size;
    this.#seq[slot] = seq;
    this.#start[slot] = start;
    this.#bodyAt[slot] = bodyAt;
    this.#end[slot] = end;
    this.#size[slot] = size;
    this.#slabs[slot] = slab;
    this.#bodies[slot] = body;
    this.#next[slot] = NONE;
    if (nonce === undefined) {
      this.#kind[slot] = NO_NONCE;
    } else if (parseNonce(nonce)) {
      this.#kind[slot] = SHAPED;
      this.#hi[slot] = parsedHi;
      this.#lo[slot] = parsedLo;
      const table = this.#nonces;
      const entry = table.find(parsedHi, parsedLo);
      if (entry === NONE) table.insert(parsedHi, parsedLo, slot);
      else {
        this.#next[table.tail[entry] as number] = slot;
        table.tail[entry] = slot;
      }
    } else {
      this.#kind[slot] = OTHER;
      this.#other[slot] = ownCopy(nonce);
    }
  }

  dropOldest(): void {
    if (this.#count === 0) return;
    const slot = this.#first;
    this.#keptSize -= this.#size[slot] as number;
    if (this.#kind[slot] === SHAPED) {
      // The oldest record is the oldest of its nonce too: its entry's head.
      const table = this.#nonces;
      const entry = table.find(this.#hi[slot] as number, this.#lo[slot] as number);
      const next = this.#next[slot] as number;
      if (next === NONE) table.remove(entry);
      else table.head[entry] = next;
    }
    this.#slabs[slot] = undefined;
    this.#bodies[slot] = undefined;
    this.#other[slot] = undefined;
    this.#first = (slot + 1) & this.#mask;
    this.#count -= 1;
  }

  clear(): void {
    this.#mask = -1;
    this.#first = 0;
    this.#count = 0;
    this.#keptSize = 0;
    this.#resizeTo(0);
    this.#nonces = new NonceTable();
  }

  select(nonce: string | undefined, since: number): KeptLine[] {
    const out: KeptLine[] = [];
    if (nonce === undefined) {
      for (let i = 0; i < this.#count; i++) this.#take((this.#first + i) & this.#mask, since, out);
    } else if (parseNonce(nonce)) {
      const entry = this.#nonces.find(parsedHi, parsedLo);
      if (entry === NONE) return out;
      for (let s = this.#nonces.head[entry] as number; s !== NONE; s = this.#next[s] as number) {
        this.#take(s, since, out);
      }
    } else {
      for (let i = 0; i < this.#count; i++) {
        const slot = (this.#first + i) & this.#mask;
        if (this.#kind[slot] === OTHER && this.#other[slot] === nonce) this.#take(slot, since, out);
      }
    }
    // Records are kept when their reply is planned, which can be out of arrival order.
    for (let i = 1; i < out.length; i++) {
      if ((out[i - 1] as KeptLine).seq > (out[i] as KeptLine).seq) {
        out.sort((a, b) => a.seq - b.seq);
        break;
      }
    }
    return out;
  }

  #take(slot: number, since: number, out: KeptLine[]): void {
    const seq = this.#seq[slot] as number;
    if (seq <= since) return;
    out.push({
      seq,
      slab: this.#slabs[slot] as Buffer,
      start: this.#start[slot] as number,
      bodyAt: this.#bodyAt[slot] as number,
      end: this.#end[slot] as number,
      body: this.#bodies[slot],
    });
  }

  /** Twice the slots, the records moved to the front in order, the chains renumbered. */
  #grow(): void {
    const oldMask = this.#mask;
    const first = this.#first;
    this.#resizeTo(Math.max(MIN_SLOTS, (oldMask + 1) * 2));
    const renumber = (slot: number) => (slot - first) & oldMask;
    for (let i = 0; i < this.#count; i++) {
      const next = this.#next[i] as number;
      if (next !== NONE) this.#next[i] = renumber(next);
    }
    this.#nonces.renumber(renumber);
    this.#first = 0;
  }

  /** New arrays of `size` slots holding the records in order from slot 0. */
  #resizeTo(size: number): void {
    const count = this.#count;
    const order = (slot: number) => (this.#first + slot) & this.#mask;
    const moved = <T extends Float64Array | Int32Array | Uint32Array | Uint8Array>(
      from: T,
      to: T,
    ): T => {
      for (let i = 0; i < count; i++) to[i] = from[order(i)] as number;
      return to;
    };
    const movedList = <T>(from: T[]): T[] => {
      const to = new Array<T>(size).fill(undefined as T);
      for (let i = 0; i < count; i++) to[i] = from[order(i)] as T;
      return to;
    };
    this.#seq = moved(this.#seq, new Float64Array(size));
    this.#start = moved(this.#start, new Int32Array(size));
    this.#bodyAt = moved(this.#bodyAt, new Int32Array(size));
    this.#end = moved(this.#end, new Int32Array(size));
    this.#size = moved(this.#size, new Float64Array(size));
    this.#kind = moved(this.#kind, new Uint8Array(size));
    this.#hi = moved(this.#hi, new Uint32Array(size));
    this.#lo = moved(this.#lo, new Uint32Array(size));
    this.#next = moved(this.#next, new Int32Array(size));
    this.#slabs = movedList(this.#slabs);
    this.#bodies = movedList(this.#bodies);
    this.#other = movedList(this.#other);
    this.#mask = size - 1;
  }
}
