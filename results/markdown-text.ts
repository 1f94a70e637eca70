/**
 * Text inside the Markdown report. Every value that comes from data (a run id, a column
 * label, a route, a probe id or field, a reason quoting what a gateway sent) goes through
 * `mdText`, or `mdCode` inside a code span, wherever it lands: a heading, a table cell, a list
 * item. The template around it is ours; the value can never end its line, its table row or
 * its code span, open a link or emphasis, or be read as HTML. A long example is cut where a
 * reader still sees what it compared.
 */

/** Line breaks (all of them, Unicode's too) and the white space around them: one space. */
const LINE_BREAKS = /\s*[\r\n\u0085\u2028\u2029]+\s*/g;
/** Control characters a terminal or a renderer acts on; shown as U+FFFD. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** What starts Markdown anywhere: escapes, code, emphasis, strikethrough, links, table cells. */
const MARKDOWN = /[\\`*_~[\]|]/g;
/** `#` after a space closes a heading; at the start of a list item it opens one. */
const HASH = /(^|\s)#/g;
/** What starts a block at the start of a list item: a list marker, a quote, an ordered item. */
const LEADING = /^([-+>]|\d+(?=[.)]))/;
/** `<` opens HTML (raw HTML or an autolink); `&` only where it would start an entity. */
const HTML = /<|&(?=#?[0-9A-Za-z]+;)/g;

function oneLine(text: string): string {
  return text.replace(LINE_BREAKS, " ").replace(CONTROLS, "\uFFFD").replaceAll("\t", " ");
}

/** A data value as Markdown text that reads as itself: safe in a heading, a list or a table cell. */
export function mdText(value: string | number): string {
  return oneLine(String(value))
    .replace(HTML, (c) => (c === "<" ? "&lt;" : "&amp;"))
    .replace(MARKDOWN, (c) => `\\${c}`)
    .replace(HASH, "$1\\#")
    .replace(LEADING, (m) => (/\d/.test(m) ? `${m}\\` : `\\${m}`));
}

/**
 * A data value as a code span: a fence longer than any run of backticks in it, so it cannot
 * close the span, and `|` escaped, which GitHub's tables need even inside code.
 */
export function mdCode(value: string): string {
  const text = oneLine(value).replaceAll("|", "\\|");
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A relative link's target (a path built from data): no space, parenthesis or `<` can end it. */
export function mdLinkTarget(path: string): string {
  return encodeURI(oneLine(path)).replace(
    /[()]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
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
