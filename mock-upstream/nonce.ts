/**
 * The nonce: a token of one fixed shape that a probe plants in its first user text. The
 * mock finds it anywhere in a request's raw bytes and stores it on the record, so the
 * requests of concurrent probes through one gateway never mix.
 */
import { randomFillSync } from "node:crypto";

/** `gc-` followed by 16 lower-case hex digits, e.g. `gc-0123456789abcdef`. */
export const NONCE_PATTERN = /gc-[0-9a-f]{16}/;

/**
 * Random bytes drawn 4 KiB at a time: one `randomBytes(8)` per attempt cost 30–60 µs of the
 * sweep's main thread (a call into the CSPRNG each time); 512 nonces per refill cost one.
 */
const POOL = Buffer.alloc(4096);
let used = POOL.length;

export function newNonce(): string {
  if (used + 8 > POOL.length) {
    randomFillSync(POOL);
    used = 0;
  }
  used += 8;
  return `gc-${POOL.toString("hex", used - 8, used)}`;
}

const NONCE_IN_TEXT = new RegExp(`${NONCE_PATTERN.source}(?![0-9a-f])`);

/**
 * The first nonce in `raw`, or undefined. No look-behind: in raw JSON a nonce after a line
 * break reads `\\ngc-...`, so a letter before it is normal. A longer hex run is not a nonce.
 */
export function findNonce(raw: string): string | undefined {
  return NONCE_IN_TEXT.exec(raw)?.[0];
}

export function isNonce(value: string): boolean {
  return new RegExp(`^${NONCE_PATTERN.source}$`).test(value);
}
