/**
 * How deep a JSON text nests, counted without parsing or recursion. `JSON.parse` reads a body
 * nested twenty thousand levels deep, but the lens's own walks (comparing, showing, searching
 * a value) recurse and overflow the stack on it: `check` died with "Maximum call stack size
 * exceeded". A side nested deeper than the lens reads is refused up front with a clear
 * message instead (issue 20 §2).
 */
import { jsonTextDepth } from "../../dialects/json.ts";

/** The deepest nesting the lens judges: real bodies (tool schemas included) nest a few dozen. */
export const MAX_JSON_DEPTH = 1000;

/** The nesting of `text` (dialects/json.ts `jsonTextDepth`) once it passes `limit`, or undefined. */
export function depthOver(text: string, limit = MAX_JSON_DEPTH): number | undefined {
  const deepest = jsonTextDepth(text);
  return deepest > limit ? deepest : undefined;
}
