/**
 * A value worked out from an object, kept for the last two objects asked about, by identity.
 * Judging asks about one exchange at a time (its client and forwarded requests, its upstream
 * and client replies), many times each; two slots hold only that exchange. A WeakMap cost
 * more in garbage collection than the work it saved, a larger cache kept past exchanges
 * alive for the young-generation collector to copy, and a non-enumerable property on the
 * object cost an `Object.defineProperty` per object (docs/lens.md, Round 4).
 */
export class RecentByIdentity<K extends object, V> {
  #lastKey: K | undefined;
  #lastValue: V | undefined;
  #otherKey: K | undefined;
  #otherValue: V | undefined;

  constructor(private readonly compute: (key: K) => V) {}

  get(key: K): V {
    if (key === this.#lastKey) return this.#lastValue as V;
    if (key === this.#otherKey) return this.#otherValue as V;
    const value = this.compute(key);
    this.#otherKey = this.#lastKey;
    this.#otherValue = this.#lastValue;
    this.#lastKey = key;
    this.#lastValue = value;
    return value;
  }
}
