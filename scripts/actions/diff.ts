import { ResultsError } from "../../results/results-error.ts";
import { formatRunDiff } from "../../results/run-diff.ts";
import { loadRunDiff } from "../../results/run-diff-io.ts";
import { openStoreReadonly } from "../../results/store.ts";
import { EXIT } from "../exit-codes.ts";
import { withResultsErrors } from "../results-errors.ts";

export function diffAction(
  runA: string | undefined,
  runB: string | undefined,
  options: { db: string; json?: boolean },
): Promise<void> {
  return withResultsErrors(() => {
    const store = openStoreReadonly(options.db);
    try {
      const runs = store.listRuns();
      const b = runB ?? runs[0]?.id;
      const a = runA ?? runs[1]?.id;
      if (!a || !b) {
        throw new ResultsError(
          "not-found",
          `diff needs two runs; ${options.db} has ${runs.length}`,
        );
      }
      const diff = loadRunDiff(store, a, b);
      process.stdout.write(
        options.json ? `${JSON.stringify(diff, null, 2)}\n` : formatRunDiff(diff),
      );
      if (diff.regressions.length > 0) process.exitCode = EXIT.failed;
    } finally {
      store.close();
    }
  });
}
