/**
 * A verdict snapshot's line format, written by verdict-snapshot.ts and read by
 * verdict-snapshot-diff.ts: the line's kind, the words of its key, then its payload (a
 * verdict list's JSON text, or a cell's verdict and what follows it).
 */

/** How many words after the kind make a line's key. */
const KEY_WORDS = {
  /** the fixture's path */
  fixture: 1,
  /** run, column, route, probe, mode, phase, attempt number */
  attempt: 7,
  /** run, column, route, probe, mode */
  cell: 5,
} as const;

export type LineKind = keyof typeof KEY_WORDS;

/** One snapshot line. A key word holding a space would shift every word after it: refused. */
export function snapshotLine(kind: LineKind, key: readonly unknown[], payload: string): string {
  const words = key.map(String);
  if (words.length !== KEY_WORDS[kind] || words.some((w) => w === "" || w.includes(" "))) {
    throw new Error(`a ${kind} line's key is ${KEY_WORDS[kind]} words without spaces: ${words}`);
  }
  return `${kind} ${words.join(" ")} ${payload}`;
}

/** A line's kind, key (the kind and its key words, as written) and payload; undefined if none. */
export function readSnapshotLine(
  line: string,
): { kind: LineKind; key: string; payload: string } | undefined {
  const kind = line.slice(0, line.indexOf(" "));
  if (!Object.hasOwn(KEY_WORDS, kind)) return undefined;
  let at = 0;
  for (let i = 0; i <= KEY_WORDS[kind as LineKind]; i++) {
    at = line.indexOf(" ", at) + 1;
    if (at === 0) return { kind: kind as LineKind, key: line, payload: "" };
  }
  return { kind: kind as LineKind, key: line.slice(0, at - 1), payload: line.slice(at) };
}
