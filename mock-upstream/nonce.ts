/**
 * The nonce: a token of one fixed shape that a probe plants in its first user text. The
 * mock finds it anywhere in a request's raw bytes and stores it on the record, so the
 * requests of concurrent probes through one gateway never mix.
 */
import { randomFillSync } from "node:crypto";
import { NONCE_IN_TEXT, nonceOf } from "../dialects/nonce.ts";

export { findNonce, isNonce } from "../dialects/nonce.ts";

/** A nonce anywhere in text: `gc-` followed by 16 lower-case hex digits (dialects/nonce.ts). */
export const NONCE_PATTERN = NONCE_IN_TEXT;

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
  return nonceOf(POOL.toString("hex", used - 8, used));
}
