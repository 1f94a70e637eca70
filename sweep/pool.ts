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
