/**
 * What is wrong with a file, one line per problem, each naming the path inside the file:
 * `forwarded[0].body.encoding: Invalid option: expected one of "utf8"|"base64"`. Where a
 * value fits none of a union's forms, the problems of the form it came closest to are given
 * (the one with fewest problems; an unknown key at the form's own level means the value
 * named another form).
 */
import type { z } from "zod";

interface Issue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  errors?: readonly (readonly Issue[])[];
}

/** `sequence[1].status`, `(top level)` for the value itself. */
export function issuePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(top level)";
  return path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`))
    .join("");
}

function cost(branch: readonly Issue[]): number {
  return branch.reduce(
    (n, i) => n + (i.code === "unrecognized_keys" && i.path.length === 0 ? 100 : 1),
    0,
  );
}

function explain(issues: readonly Issue[], base: readonly PropertyKey[]): string[] {
  return issues.flatMap((issue) => {
    const path = [...base, ...issue.path];
    if (issue.code === "invalid_union" && issue.errors?.length) {
      const best = [...issue.errors].sort((a, b) => cost(a) - cost(b))[0] ?? [];
      if (best.length > 0 && cost(best) < 100) return explain(best, path);
      return [`${issuePath(path)}: ${issue.message} (none of the accepted forms fits)`];
    }
    return [`${issuePath(path)}: ${issue.message}`];
  });
}

/** Every problem of a failed parse, one line each (`path: message`). */
export function issueLines(error: z.ZodError): string[] {
  return explain(error.issues as readonly Issue[], []);
}

/** The problems under a heading, at most `max` of them listed. */
export function describeIssues(error: z.ZodError, heading: string, max = 8): string {
  const lines = issueLines(error);
  const shown = lines.slice(0, max).map((line) => `  ${line}`);
  const more = lines.length > max ? `\n  … and ${lines.length - max} more` : "";
  return `${heading}:\n${shown.join("\n")}${more}`;
}
