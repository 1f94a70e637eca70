/**
 * How deep a JSON text nests, counted without parsing or recursion. `JSON.parse` reads a body
 * nested twenty thousand levels deep, but the lens's own walks (comparing, showing, searching
 * a value) recurse and overflow the stack on it: `check` died with "Maximum call stack size
 * exceeded". A side nested deeper than the lens reads is refused up front with a clear
 * message instead (issue 20 §2).
 */

/** The deepest nesting the lens judges: real bodies (tool schemas included) nest a few dozen. */
export const MAX_JSON_DEPTH = 1000;

/**
 * The nesting of `[` and `{` in `text` (strings skipped) once it passes `limit`, or undefined
 * when it never does. Works on any text: an SSE stream's events are counted as they come.
 */
export function depthOver(text: string, limit = MAX_JSON_DEPTH): number | undefined {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return deepest > limit ? deepest : undefined;
}
