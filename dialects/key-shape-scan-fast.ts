/**
 * Whether text holds one of the key shapes' prefixes: `KEY_PREFIXES.test(text)` (key-shapes.ts,
 * the plain reference), answered by searches for characters that are rare in ordinary text.
 * The one expression tries a dozen alternatives at every `-`, `_`, `.`, `A`, `e`, `s`, `:`
 * or `b` of the text, and ordinary text is full of `e` and `s`; `indexOf` of one character
 * skips to the next one in native code. `key-shape-scan-fast.test.ts` holds the two equal;
 * measured in docs/perf-log.md (The mock).
 *
 * Every prefix that ends in a separator (`sk-`, `hf_`, `ya29.`) is tried only where that
 * separator stands behind one of the characters such a prefix can have before it. The other
 * prefixes are tried only where text holds a literal each of them cannot match without.
 */
import { KEY_PREFIX_ROWS, KEY_PREFIXES, SEPARATOR_PREFIXES } from "./key-shapes.ts";

/**
 * The characters that stand right before the separator in the prefixes ending in it. A
 * prefix ending in a separator not listed here, or a character missing here, is caught by
 * the test that compares this scan with the plain one on every row's example.
 */
const BEFORE_SEPARATOR: Readonly<Record<string, string>> = {
  // sk- pk-, xai- pypi-, pplx-, GitLab's (…t- …s-), Slack's xox[abeprs]- xapp-
  "-": "kixtsabepr",
  // gsk_, hf_, r8_, lsv2_, gh[pousr]_, github_pat_, npm_, Stripe's (live|test)_, whsec_
  _: "kf82pousrtmec",
  // ya29. hooks. SG.
  ".": "9sG",
};

/**
 * For each prefix that does not end in a separator, literals it cannot match without, the
 * rarest character first (`indexOf` skips to a literal's first character). A prefix with no
 * entry is tried on the whole text.
 */
export const ANCHORS: Readonly<Record<string, readonly string[]>> = {
  AIza: ["Iza"],
  "A[BCKS][CI]A": ["IA", "CA"],
  "[Ss]ecret_?[Aa]ccess_?[Kk]ey|SECRET_ACCESS_KEY": ["key", "Key", "KEY"],
  eyJ: ["yJ"],
  "-----BEGIN": ["-----BEGIN"],
  ':\\/\\/[^\\s/?#@"]*:[^\\s/?#@"]+@': ["://"],
  "(?:[Bb]earer|BEARER)[ \\t]": ["Bearer", "bearer", "BEARER"],
};

interface SeparatorScan {
  readonly separator: string;
  readonly before: Uint8Array;
  /** The prefixes ending in `separator`, tried where one ends: `lastIndex` just after it. */
  readonly behind: RegExp;
}

const SEPARATOR_SCANS: readonly SeparatorScan[] = Object.entries(SEPARATOR_PREFIXES).map(
  ([separator, prefixes]) => {
    const chars = BEFORE_SEPARATOR[separator];
    if (chars === undefined)
      throw new Error(`key-shape-scan-fast: no BEFORE_SEPARATOR for ${separator}`);
    const before = new Uint8Array(128);
    for (const c of chars) before[c.charCodeAt(0)] = 1;
    return { separator, before, behind: new RegExp(`(?<=${prefixes.join("|")})`, "y") };
  },
);

interface AnchoredPrefix {
  readonly anchors: readonly string[];
  readonly prefix: RegExp;
}

const OTHER_PREFIXES: readonly AnchoredPrefix[] = KEY_PREFIX_ROWS.others.map((source) => ({
  anchors: ANCHORS[source] ?? [""],
  prefix: new RegExp(source),
}));

/**
 * Below this length the one expression is as quick as the searches' fixed cost (a path, a
 * header value).
 */
const SHORT_TEXT = 128;

/** `KEY_PREFIXES.test(text)`, faster where text holds none of the prefixes. */
export function hasKeyPrefix(text: string): boolean {
  if (text.length < SHORT_TEXT) return KEY_PREFIXES.test(text);
  for (const scan of SEPARATOR_SCANS) {
    let at = text.indexOf(scan.separator, 1);
    while (at > 0) {
      const c = text.charCodeAt(at - 1);
      if (c >= 128 || scan.before[c] === 1) {
        scan.behind.lastIndex = at + 1;
        if (scan.behind.test(text)) return true;
      }
      at = text.indexOf(scan.separator, at + 1);
    }
  }
  for (const other of OTHER_PREFIXES) {
    for (const anchor of other.anchors) {
      if (text.includes(anchor)) {
        if (other.prefix.test(text)) return true;
        break;
      }
    }
  }
  return false;
}
