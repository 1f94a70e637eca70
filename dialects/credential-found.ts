/**
 * Where in a request a secret sits: the one search both the lens's credential judge (a client
 * key forwarded) and the agent loops' second client (a key stuck to the next caller) make.
 * The query is searched as written and as a server decodes it (`sk%2Dproj...` is a key).
 */
import { safeDecode } from "./credential-url.ts";

/** A request as text: its headers, its path with the query, its body. */
export interface RequestText {
  headers: readonly (readonly [string, string])[];
  path: string;
  body: string;
}

/** The place a secret was found: a header (by name), the query or the body. */
export type FoundPlace = { place: "header"; name: string } | { place: "query" } | { place: "body" };

/** Whether any needle is inside `text`. A loop: this runs for every header of a request. */
function holdsAny(text: string, needles: readonly string[]): boolean {
  for (const needle of needles) if (text.includes(needle)) return true;
  return false;
}

/** The first place in `request` holding any of `needles`: headers, then query, then body. */
export function findSecretIn(
  request: RequestText,
  needles: readonly string[],
): FoundPlace | undefined {
  for (const [name, value] of request.headers) {
    if (holdsAny(value, needles)) return { place: "header", name };
  }
  const at = request.path.indexOf("?");
  if (at >= 0) {
    // Everything after the first `?` is the query: a later `?` is a query character (RFC 3986 §3.4).
    const query = request.path.slice(at + 1);
    if (holdsAny(query, needles) || holdsAny(safeDecode(query), needles)) return { place: "query" };
  }
  return holdsAny(request.body, needles) ? { place: "body" } : undefined;
}
