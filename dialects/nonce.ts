/**
 * The nonce: `gc-` and 16 lower-case hex digits, planted in a probe's first user text so the
 * mock can tell which request carries which probe by its raw bytes. The one definition the
 * corpus, the mock and the sweep share.
 */

/** A nonce anywhere in text (not followed by another hex digit). */
export const NONCE_IN_TEXT = /gc-[0-9a-f]{16}(?![0-9a-f])/;

const NONCE_ONLY = /^gc-[0-9a-f]{16}$/;
/** Every nonce-shaped substring; `gc-` cannot occur inside a hex run, so none overlap. */
const NONCE_SHAPED = /gc-[0-9a-f]{16}/g;

/** The nonce made of 16 hex digits. */
export function nonceOf(hex16: string): string {
  return `gc-${hex16}`;
}

/**
 * Half of a nonce's 16 hex digits (`half` 0: the first 8, 1: the last 8) as a 32-bit integer:
 * the mock's recorder keeps a nonce per record as two numbers, not a string (kept-records.ts).
 * `nonce` is one (`isNonce`).
 */
export function nonceHalf(nonce: string, half: 0 | 1): number {
  let value = 0;
  const from = 3 + half * 8;
  for (let i = from; i < from + 8; i++) {
    const code = nonce.charCodeAt(i);
    value = (value << 4) | (code <= 57 ? code - 48 : code - 87);
  }
  return value;
}

/** The nonce whose halves `nonceHalf` gave. */
export function nonceFromHalves(high: number, low: number): string {
  return nonceOf(hex8(high) + hex8(low));
}

const hex8 = (half: number) => (half >>> 0).toString(16).padStart(8, "0");

/** Whether `value` is exactly one nonce. */
export function isNonce(value: string): boolean {
  return NONCE_ONLY.test(value);
}

/**
 * The first nonce in `text`, if any. No look-behind: in raw JSON a nonce after a line break
 * reads `\\ngc-...`, so a letter before it is normal. A longer hex run is not a nonce.
 */
export function findNonce(text: string): string | undefined {
  // `gc-` found by the engine's substring search, the digits checked by hand: the mock runs
  // this on every request body, where the pattern took about 7 times as long.
  for (let at = text.indexOf("gc-"); at >= 0; at = text.indexOf("gc-", at + 3)) {
    const end = at + 3 + NONCE_DIGITS;
    let digits = at + 3;
    while (digits < end && isLowerHex(text.charCodeAt(digits))) digits++;
    if (digits === end && !isLowerHex(text.charCodeAt(end))) return text.slice(at, end);
  }
  return undefined;
}

const NONCE_DIGITS = 16;

/** 0-9 or a-f; NaN (past the end) is neither. */
function isLowerHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 102);
}

/**
 * Every nonce-shaped substring of `text`, each once: the nonces a body could be matched by (a
 * longer hex run after one still contains it, so no look-ahead here, unlike findNonce).
 */
export function nonceCandidates(text: string): Set<string> {
  const found = new Set<string>();
  if (!text.includes("gc-")) return found;
  for (const m of text.matchAll(NONCE_SHAPED)) found.add(m[0]);
  return found;
}
