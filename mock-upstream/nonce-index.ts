/**
 * The recorder's kept records by nonce, oldest first: a sweep asks for one attempt's nonce
 * after every attempt, and scanning every kept record for it grew with the run. Each list
 * has a head, as the recorder's ring does: eviction only moves it (a `shift()` copied a
 * nonce's whole list, 700 KB per request once most of 100,000 records shared one nonce).
 * A nonce's first record stands for itself: a list only once a second one comes, so fresh
 * nonces (one record each) cost no list objects for the collector to keep.
 */

/** What the index holds: anything with a nonce (the recorder's kept records). */
export interface Nonced {
  nonce: string | undefined;
}

/** A nonce's records, oldest first; the slots before `head` are spent. */
export interface NonceList<T> {
  /** The nonce, once: every record of it shares this string. */
  nonce: string;
  items: (T | undefined)[];
  head: number;
}

function isNonceList<T extends Nonced>(entry: T | NonceList<T>): entry is NonceList<T> {
  return "items" in entry;
}

export class NonceIndex<T extends Nonced> {
  readonly #byNonce = new Map<string, T | NonceList<T>>();

  /** Index a record (the newest so far); one without a nonce is skipped. */
  add(kept: T): void {
    const nonce = kept.nonce;
    if (nonce === undefined) return;
    const same = this.#byNonce.get(nonce);
    if (same === undefined) this.#byNonce.set(nonce, kept);
    else if (isNonceList(same)) {
      kept.nonce = same.nonce;
      same.items.push(kept);
    } else {
      kept.nonce = same.nonce;
      this.#byNonce.set(nonce, { nonce, items: [same, kept], head: 0 });
    }
  }

  /** Forget an evicted record: the oldest kept, so the oldest of its nonce too. */
  forget(evicted: T): void {
    if (evicted.nonce === undefined) return;
    const same = this.#byNonce.get(evicted.nonce);
    if (same === evicted) {
      this.#byNonce.delete(evicted.nonce);
      return;
    }
    if (!same || !isNonceList(same) || same.items[same.head] !== evicted) return;
    same.items[same.head] = undefined;
    same.head += 1;
    if (same.head === same.items.length) this.#byNonce.delete(evicted.nonce);
    else if (same.head > 1024 && same.head * 2 > same.items.length) {
      // Drop the spent slots once they are the larger part, as the ring does.
      same.items = same.items.slice(same.head);
      same.head = 0;
    }
  }

  /** The nonce's records, oldest first from `head` (spent slots are undefined). */
  list(nonce: string): { items: readonly (T | undefined)[]; head: number } | undefined {
    const entry = this.#byNonce.get(nonce);
    if (entry === undefined || isNonceList(entry)) return entry;
    return { items: [entry], head: 0 };
  }

  clear(): void {
    this.#byNonce.clear();
  }
}
