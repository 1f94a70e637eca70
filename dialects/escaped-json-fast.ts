/**
 * Whether a JSON text with escapes holds a key shape or a secret, answered from its parse
 * instead of decoding it. Plain reference: `foundBehindEscapes` (credentials.ts), which decodes
 * the whole text in JavaScript at about 160 ns an escape: a 37 KB conversation from a Python
 * client (whose `json.dumps` escapes every non-ASCII character) took 400 µs there, six times
 * its parse, on every request the mock recorded. `escaped-json-fast.test.ts` holds the two
 * equal; measured in docs/mock.md (Performance).
 *
 * Why the parse is enough: in JSON every escape stands inside a string token, and
 * `JSON.parse` has undone them all. A match in the decoded text that touches no escape is in
 * the raw text as written; one that touches an escape lies inside that token's string, unless
 * it runs over the token's quote, which a key prefix never does and a secret can only if it
 * holds a `"` (then this cannot tell). Outside the strings stand numbers, `true`, `false`,
 * `null` and punctuation: no key prefix, but perhaps a secret of digits.
 */
import { hasKeyPrefix } from "./key-shape-scan-fast.ts";

/**
 * `foundBehindEscapes(raw, searched)` for `parsed = JSON.parse(raw)`: true or false, or
 * undefined where the parse cannot tell (a secret holding `"`, a duplicate key).
 * `searched` are the secrets long enough to be searched in text.
 */
export function foundInEscapedJson(
  raw: string,
  parsed: unknown,
  searched: readonly string[],
): boolean | undefined {
  if (searched.some((secret) => secret.includes('"'))) return undefined;
  const strings = jsonStrings(raw, parsed);
  if (!strings) return undefined;
  // Joined by quotes, which no match holds: none runs from one string into the next.
  const joined = strings.join('"');
  // A secret may also stand outside every string (in a number); a key prefix cannot.
  return (
    hasKeyPrefix(joined) ||
    searched.some((secret) => joined.includes(secret) || raw.includes(secret))
  );
}

/**
 * Every string of `parsed` (which must be `JSON.parse(raw)`), keys and values, or undefined
 * when the parse holds fewer strings than `raw` spells: of a duplicate key only the last
 * value is kept, and what the others held is in no string here. Walked without recursion (a
 * body nested ten thousand deep).
 */
export function jsonStrings(raw: string, parsed: unknown): string[] | undefined {
  const strings: string[] = [];
  const stack: unknown[] = [parsed];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") strings.push(v);
    else if (Array.isArray(v)) for (const inner of v) stack.push(inner);
    else if (v !== null && typeof v === "object") {
      for (const key of Object.keys(v)) {
        strings.push(key);
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return strings.length === stringTokens(raw) ? strings : undefined;
}

/**
 * The string tokens a JSON text spells: its quotes that no backslash escapes, halved. A
 * quote is escaped when an odd run of backslashes stands before it (`\"`, not `\\"`).
 */
export function stringTokens(raw: string): number {
  let quotes = 0;
  for (let at = raw.indexOf('"'); at >= 0; at = raw.indexOf('"', at + 1)) {
    let slashes = 0;
    while (raw.charCodeAt(at - 1 - slashes) === 0x5c) slashes += 1;
    if (slashes % 2 === 0) quotes += 1;
  }
  return quotes / 2;
}
