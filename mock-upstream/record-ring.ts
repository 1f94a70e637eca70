/**
 * The recorder's memory of kept records, oldest first, with an index by nonce: the plain
 * reference. A kept record is an object, and each nonce a list of them. The recorder uses
 * the packed form (record-ring-packed.ts), which keeps the same records in typed arrays;
 * record-ring.test.ts holds the two to the same answers.
 */
import { ownCopy } from "./line-slab.ts";

/**
 * Where a kept record's line is: `slab[start, end)`, or, when its reply body is shared with
 * other records (record-line.ts), `slab[start, bodyAt)`, `body`, `slab[bodyAt, end)`.
 */
export interface KeptLine {
  seq: number;
  slab: Buffer;
  start: number;
  bodyAt: number;
  end: number;
  body: Buffer | undefined;
}

export interface RecordRing {
  /** Records kept. */
  readonly count: number;
  /** Bytes the kept records hold on their own account (`size` of each, summed). */
  readonly keptSize: number;
  /** Keep a record, the newest. `size`: what it keeps alive (a shared body counted too). */
  push(
    seq: number,
    nonce: string | undefined,
    slab: Buffer,
    start: number,
    bodyAt: number,
    end: number,
    body: Buffer | undefined,
    size: number,
  ): void;
  /** Forget the oldest record (there is one). */
  dropOldest(): void;
  /** Forget every record. */
  clear(): void;
  /** The kept records with `seq` above `since` (of `nonce`, when given), in `seq` order. */
  select(nonce: string | undefined, since: number): KeptLine[];
}

interface KeptRecord extends KeptLine {
  nonce: string | undefined;
  size: number;
}

/** A nonce's kept records, oldest first; the slots before `head` are spent. */
interface NonceList {
  items: (KeptRecord | undefined)[];
  head: number;
}

/** The records in `items` from `head` that pass, sorted by `seq`. */
function selectFrom(list: NonceList | undefined, since: number): KeptLine[] {
  const out: KeptLine[] = [];
  if (!list) return out;
  let sorted = true;
  for (let i = list.head; i < list.items.length; i++) {
    const kept = list.items[i];
    if (!kept || kept.seq <= since) continue;
    const last = out[out.length - 1];
    if (last && last.seq > kept.seq) sorted = false;
    out.push(kept);
  }
  // Records are kept when their reply is planned, which can be out of arrival order.
  if (!sorted) out.sort((a, b) => a.seq - b.seq);
  return out;
}

export class PlainRecordRing implements RecordRing {
  /** Oldest first; the slots before `#ring.head` are spent (undefined). */
  #ring: NonceList = { items: [], head: 0 };
  /**
   * The same kept records by nonce, oldest first. Each list has a head, as the ring does:
   * eviction only moves it (a `shift()` copied a nonce's whole list, 700 KB per request
   * once most of 100,000 records shared one nonce).
   */
  readonly #byNonce = new Map<string, NonceList>();
  #keptSize = 0;

  get count(): number {
    return this.#ring.items.length - this.#ring.head;
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
    const kept: KeptRecord = { seq, nonce: undefined, slab, start, bodyAt, end, body, size };
    this.#ring.items.push(kept);
    this.#keptSize += size;
    if (nonce === undefined) return;
    const same = this.#byNonce.get(nonce);
    if (same) {
      kept.nonce = same.items[same.head]?.nonce ?? nonce;
      same.items.push(kept);
    } else {
      // A nonce found in a request is a slice of the request's text and would keep it alive.
      kept.nonce = ownCopy(nonce);
      this.#byNonce.set(kept.nonce, { items: [kept], head: 0 });
    }
  }

  dropOldest(): void {
    const ring = this.#ring;
    const oldest = ring.items[ring.head];
    if (!oldest) return;
    spend(ring);
    this.#keptSize -= oldest.size;
    if (oldest.nonce === undefined) return;
    // The oldest record is the oldest of its nonce too.
    const same = this.#byNonce.get(oldest.nonce);
    if (!same) return;
    spend(same);
    if (same.head === same.items.length) this.#byNonce.delete(oldest.nonce);
  }

  clear(): void {
    this.#ring = { items: [], head: 0 };
    this.#byNonce.clear();
    this.#keptSize = 0;
  }

  select(nonce: string | undefined, since: number): KeptLine[] {
    return selectFrom(nonce === undefined ? this.#ring : this.#byNonce.get(nonce), since);
  }
}

/** Move a list's head past its first item; drop the spent slots once they are the larger part. */
function spend(list: NonceList): void {
  list.items[list.head] = undefined;
  list.head += 1;
  if (list.head > 1024 && list.head * 2 > list.items.length) {
    list.items = list.items.slice(list.head);
    list.head = 0;
  }
}
