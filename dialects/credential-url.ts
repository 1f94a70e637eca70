/**
 * Credentials in a URL: a query's credential parameters and key-shaped or known secrets in a
 * path or query, searched as a server decodes them (`sk%2Dproj...` is a key) and redacted in
 * the form they were written.
 */
import { isCredentialName } from "./credential-names.ts";
import { CREDENTIAL_QUERY_PARAMS, redactionTag, redactText } from "./credentials.ts";

/** decodeURIComponent that keeps malformed percent-encoding as written instead of throwing. */
export function safeDecode(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A form value's `+` is a space; a path's is a plus. */
function decodeQueryPart(text: string): string {
  return safeDecode(text.includes("+") ? text.replaceAll("+", " ") : text);
}

/**
 * Percent-encoding for a redacted URL part: everything `encodeURIComponent` encodes, except
 * the tag's brackets and colon, so `[REDACTED:1f0c2a9e]` stays readable in a stored URL.
 */
function encodeRedacted(text: string): string {
  return encodeURIComponent(text).replace(/%5B|%5D|%3A/g, (m) => decodeURIComponent(m));
}

/**
 * One URL part, secrets searched as a server decodes it (`sk%2Dproj...` is a key): kept as
 * written when nothing is found, else re-encoded from the redacted decoded text.
 */
function redactUrlPart(
  part: string,
  extraSecrets: readonly string[],
  decode: (text: string) => string,
): string {
  const plain = redactText(part, extraSecrets);
  const decoded = decode(plain);
  if (decoded === plain) return plain;
  const redacted = redactText(decoded, extraSecrets);
  return redacted === decoded ? plain : encodeRedacted(redacted);
}

/** Query parameter names whose value is redacted whole. */
export function isCredentialParam(name: string): boolean {
  return (
    (CREDENTIAL_QUERY_PARAMS as readonly string[]).includes(name.toLowerCase()) ||
    isCredentialName(name)
  );
}

/** A query string (without `?`), credential parameters redacted, order kept. */
export function redactQuery(query: string, extraSecrets: readonly string[] = []): string {
  if (!query) return query;
  return query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0) return redactUrlPart(pair, extraSecrets, decodeQueryPart);
      const name = decodeQueryPart(pair.slice(0, eq));
      const value = pair.slice(eq + 1);
      // A key can stand in a parameter's name too (`?sk-proj-...=1`).
      const recordedName = redactUrlPart(pair.slice(0, eq), extraSecrets, decodeQueryPart);
      if (isCredentialParam(name)) {
        return `${recordedName}=${redactionTag(decodeQueryPart(value))}`;
      }
      return `${recordedName}=${redactUrlPart(value, extraSecrets, decodeQueryPart)}`;
    })
    .join("&");
}

/**
 * A URL path with key-shaped and known secrets redacted segment by segment, decoded. The
 * whole path is scanned first: an absolute-form target (`http://user:pw@host/...`) holds a
 * password that only the text around it, across the slashes, shows.
 */
export function redactPath(path: string, extraSecrets: readonly string[] = []): string {
  const whole = redactText(path, extraSecrets);
  // Without escapes the path is its own decoded text: one scan, no split.
  if (!whole.includes("%")) return whole;
  return whole
    .split("/")
    .map((segment) => redactUrlPart(segment, extraSecrets, safeDecode))
    .join("/");
}

/** A request target (`/path?query`), its path and query redacted. */
export function redactRequestTarget(target: string, extraSecrets: readonly string[] = []): string {
  const mark = target.indexOf("?");
  if (mark < 0) return redactPath(target, extraSecrets);
  return `${redactPath(target.slice(0, mark), extraSecrets)}?${redactQuery(target.slice(mark + 1), extraSecrets)}`;
}
