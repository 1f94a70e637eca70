/**
 * The recorder's kept records by nonce, as their ordinals (kept-records.ts), oldest first: a
 * sweep asks for one attempt's nonce after every attempt, and scanning every kept record for
 * it grew with the run. Each list has a head, as the recorder's ring does: eviction only
 * moves it (a `shift()` copied a nonce's whole list, 700 KB per request once most of 100,000
 * records shared one nonce). A nonce's first record stands for itself: a list only once a
 * second one comes, so fresh nonces (one record each) cost no list for the collector to keep.
 */

/** A nonce's ordinals, oldest first; the slots before `head` are spent. */
interface NonceList {
  items: number[];
  head: number;
}

export class NonceIndex {
  readonly #byNonce = new Map<string, number | NonceList>();

  /** Index a record (the newest indexed so far) by its nonce. */
  add(ordinal: number, nonce: string): void {
    const same = this.#byNonce.get(nonce);
    if (same === undefined) this.#byNonce.set(nonce, ordinal);
    else if (typeof same === "number")
      this.#byNonce.set(nonce, { items: [same, ordinal], head: 0 });
    else same.items.push(ordinal);
  }

  /** Forget an evicted record: the oldest kept, so the oldest of its nonce too. */
  forget(ordinal: number, nonce: string): void {
    const same = this.#byNonce.get(nonce);
    if (same === ordinal) {
      this.#byNonce.delete(nonce);
      return;
    }
    if (same === undefined || typeof same === "number" || same.items[same.head] !== ordinal) {
      return;
    }
    same.head += 1;
    if (same.head === same.items.length) this.#byNonce.delete(nonce);
    else if (same.head > 1024 && same.head * 2 > same.items.length) {
      // Drop the spent slots once they are the larger part, as the ring does.
      same.items = same.items.slice(same.head);
      same.head = 0;
    }
  }

  /** The nonce's ordinals, oldest first from `head`. */
  list(nonce: string): { items: readonly number[]; head: number } | undefined {
    const entry = this.#byNonce.get(nonce);
    if (entry === undefined || typeof entry !== "number") return entry;
    return { items: [entry], head: 0 };
  }

  clear(): void {
    this.#byNonce.clear();
  }
}
