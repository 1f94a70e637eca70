/**
 * Work held to the end of the event loop's turn (`setImmediate`), then run together: first
 * `before` (the record file's write), then every function queued, in order. The mock sends
 * its replies this way, with or without a record file: under load one turn answers every
 * request read in it, back to back, and a load generator woken by the first reply is still
 * awake for the others. Sent inline as each request ended, the same replies cost the mock
 * about twice the system time in `writev` (docs/mock.md, Performance).
 */

/** A function and its two arguments: no closure per reply. */
type Waiting<A, B> = [(a: A, b: B) => void, A, B];

export class EndOfTurn {
  /** Flat triples (function, argument, argument). */
  #waiting: unknown[] = [];
  #scheduled = false;

  constructor(readonly before: () => void = () => {}) {}

  /** Run `fn(a, b)` at the end of this turn, after `before`. */
  add<A, B>(fn: (a: A, b: B) => void, a: A, b: B): void {
    this.#waiting.push(fn, a, b);
    this.schedule();
  }

  /** Make sure `run` happens at the end of this turn (for `before` alone). */
  schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.run());
  }

  /** `before`, then everything queued so far; safe to call early (a later turn finds less). */
  run(): void {
    this.#scheduled = false;
    this.before();
    const waiting = this.#waiting;
    if (waiting.length === 0) return;
    this.#waiting = [];
    for (let i = 0; i < waiting.length; i += 3) {
      (waiting[i] as Waiting<unknown, unknown>[0])(waiting[i + 1], waiting[i + 2]);
    }
  }
}
