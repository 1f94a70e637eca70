/**
 * Text inside the Markdown report: a table cell never breaks its row (pipes escaped, line
 * breaks folded), a long example is cut where a reader still sees what it compared.
 */

/** Text safe inside a Markdown table cell. */
export function cellText(text: string): string {
  return text.replaceAll("|", "\\|").replace(/\s*\n\s*/g, " ");
}

/** At most `max` characters, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A list of names, the first `max` of them and how many more. */
export function someOf(names: readonly string[], max: number): string {
  if (names.length <= max) return names.join(", ");
  return `${names.slice(0, max).join(", ")}, … ${names.length - max} more`;
}

/** `ns`, `s` or `ns+s` for the modes a set of cells ran in. */
export function modesText(modes: readonly string[]): string {
  const has = (m: string) => modes.includes(m);
  if (has("non-stream") && has("stream")) return "ns+s";
  return has("stream") ? "s" : "ns";
}

/** `1,248`. */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}
