/**
 * A path built from data (a run id, a column label, a route id) stays inside the folder it
 * belongs to. The grammar of each value is checked where it comes in (run-id.ts, the gateway
 * spec); this is the second lock, on the path itself, before anything is written or deleted:
 * a value that got past its check, or a check that changed, still cannot reach outside.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import { ResultsError } from "./results-error.ts";

/**
 * `root` joined with `parts`, when each part only descends (no empty, `.` or `..` segment, no
 * absolute part) and the result, resolved, lies strictly inside `root`: never `root` itself
 * (deleting `runs/.` deletes every run) and never another of its folders by a detour
 * (`x/../night-2` would delete the kept run's). An `outside-root` error otherwise.
 */
export function insideRoot(root: string, ...parts: string[]): string {
  const base = resolve(root);
  const path = resolve(base, ...parts);
  const rel = relative(base, path);
  const outside = rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
  const segments = parts.flatMap((p) => p.split(/[\\/]/));
  const detour = segments.some((s) => s === "" || s === "." || s === ".." || s.includes("\0"));
  if (parts.length === 0 || outside || detour) {
    throw new ResultsError(
      "outside-root",
      `refusing the path ${JSON.stringify(parts.join("/"))}: it must name something inside ${base} by descending into it (it resolves to ${path})`,
    );
  }
  return path;
}
