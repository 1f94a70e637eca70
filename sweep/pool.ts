/** Run `work` over `items` with at most `limit` in flight; resolves when all are done. */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index] as T, index);
    }
  });
  await Promise.all(lanes);
}

/**
 * At most `size` holders at once, served in arrival order: the sweep's requests in flight
 * to one gateway (`--concurrency`), held from sending to the mock's record and released
 * before judging, so a cell waiting on its judgement never keeps the gateway idle.
 */
export class Slots {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    this.#free = Math.max(1, size);
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free -= 1;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      // The slot passes straight to the next in line, so a late arrival never jumps ahead.
      if (next) next();
      else this.#free += 1;
    }
  }
}

/**
 * `forEachLimited` over two groups at once, each with its own limit: the items `apart` says
 * are apart never take a lane of the others, so a group of long waits cannot hold every
 * lane while the other group's items queue behind them.
 */
export async function forEachLimitedApart<T>(
  items: readonly T[],
  apart: (item: T) => boolean,
  limits: { rest: number; apart: number },
  work: (item: T) => Promise<void>,
): Promise<void> {
  const kept = items.filter((item) => apart(item));
  const rest = items.filter((item) => !apart(item));
  await Promise.all([
    forEachLimited(rest, limits.rest, (item) => work(item)),
    forEachLimited(kept, limits.apart, (item) => work(item)),
  ]);
}
