/**
 * Deterministic sharding: a cell belongs to shard i of n by a stable hash of its key, so
 * n machines given `--shard 1/n` ... `--shard n/n` run disjoint parts whose union is the
 * whole sweep, whatever order they enumerate cells in.
 */

export interface Shard {
  /** 1-based, as CI job matrices count. */
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new Error(`--shard takes i/n with 1 <= i <= n (for example 2/3), got "${text}"`);
  }
  return { index, count };
}

/** FNV-1a, 32 bit: stable across machines and Node versions, good enough to spread keys. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function inShard(key: string, shard: Shard | undefined): boolean {
  if (!shard || shard.count === 1) return true;
  return (stableHash(key) % shard.count) + 1 === shard.index;
}
