/** Text and attribute escaping for the HTML report, and JSON safe inside a `<script>` element. */

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Safe in element text and in double- or single-quoted attribute values. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/**
 * JSON for a `<script type="application/json">` block. Every `<` becomes `\u003c`, so no
 * byte sequence in a recorded body (`</script>`, `<!--`) can end or confuse the element;
 * U+2028/2029 are escaped for older parsers. `JSON.parse` gives back the same value.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** An issue reference as a URL: `owner/repo#12` → GitHub issue, URLs as given, else none. */
export function issueUrl(ref: string): string | undefined {
  const m = /^([\w.-]+\/[\w.-]+)#(\d+)$/.exec(ref);
  if (m) return `https://github.com/${m[1]}/issues/${m[2]}`;
  return /^https?:\/\//.test(ref) ? ref : undefined;
}
