/**
 * Which headers a relay must not pass on. Hop-by-hop headers describe one connection, not the
 * message; a relay that copied `transfer-encoding: chunked` onto a body it re-frames, or
 * `connection: close` onto a kept-alive socket, would lie about the bytes.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-7.6.1
 */
export const HOP_BY_HOP = [
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
] as const;

/** Hop-by-hop names, plus any the `Connection` header itself lists. */
function hopNames(pairs: readonly (readonly [string, string])[]): Set<string> {
  const names = new Set<string>(HOP_BY_HOP);
  for (const [name, value] of pairs) {
    if (name.toLowerCase() !== "connection") continue;
    for (const token of value.split(",")) {
      const listed = token.trim().toLowerCase();
      if (listed) names.add(listed);
    }
  }
  return names;
}

/**
 * End-to-end headers only, order and case kept. `also` drops more names (lower case): the
 * relay sets `host` and `content-length` itself on the way up.
 */
export function endToEndHeaders(
  pairs: readonly (readonly [string, string])[],
  also: readonly string[] = [],
): [string, string][] {
  const drop = hopNames(pairs);
  for (const name of also) drop.add(name);
  return pairs.filter(([name]) => !drop.has(name.toLowerCase())).map(([n, v]) => [n, v]);
}
