/**
 * What a run id may be. A run id names a folder (`<out>/runs/<run-id>/`) that `prune` deletes
 * and a sweep writes, and it is printed into MATRIX.md and shell commands (the resume hint),
 * so it is one file name and nothing else: no separator, no `.` or `..`, no leading dot or
 * dash, nothing a shell or a renderer reads. Every door a run id comes in by checks it here:
 * `--run-id` and `--resume`, the ids of `report`, `export`, `diff` and `rescore`, the runs of a
 * database `merge` reads, and every run row read from a database (row-mapping.ts).
 */
import { ResultsError } from "./results-error.ts";

/** Longest run id: a generated one (`2026-11-30T02-10-00Z-ab12`) is 25 characters. */
export const RUN_ID_MAX = 80;

const RUN_ID = new RegExp(`^[A-Za-z0-9][A-Za-z0-9._-]{0,${RUN_ID_MAX - 1}}$`);

/** The grammar in words, for help texts and errors. */
export const RUN_ID_RULE = `1 to ${RUN_ID_MAX} letters, digits, . _ -, starting with a letter or digit`;

export function isRunId(text: string): boolean {
  return RUN_ID.test(text);
}

/** The id shown in an error: quoted, control characters visible, a long one cut. */
export function shownRunId(text: string): string {
  const json = JSON.stringify(text);
  return json.length <= RUN_ID_MAX + 20
    ? json
    : `${json.slice(0, RUN_ID_MAX)}…" (${text.length} characters)`;
}

/**
 * The id, or a `bad-run-id` error saying where it came from (`--run-id`, `merge input
 * shard-1.db`), what a run id may be, and what became of the command (`after`).
 */
export function requireRunId(text: string, where: string, after = ""): string {
  if (isRunId(text)) return text;
  throw new ResultsError(
    "bad-run-id",
    `${where}: ${shownRunId(text)} is not a run id (a run id is ${RUN_ID_RULE}: one folder name under <out>/runs/)${after}`,
  );
}
