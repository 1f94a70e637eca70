import { ResultsError } from "../../results/results-error.ts";
import { formatRunDiff } from "../../results/run-diff.ts";
import { loadRunDiff } from "../../results/run-diff-io.ts";
import { openStoreReadonly } from "../../results/store.ts";
import { EXIT } from "../exit-codes.ts";
import { withResultsErrors } from "../results-errors.ts";
import { optionalRunIdArg } from "../run-id-arg.ts";

export function diffAction(
  runA: string | undefined,
  runB: string | undefined,
  options: { db: string; json?: boolean },
): Promise<void> {
  optionalRunIdArg(runA, "diff RUN_A");
  optionalRunIdArg(runB, "diff RUN_B");
  return withResultsErrors(() => {
    const store = openStoreReadonly(options.db);
    try {
      const runs = store.listRuns();
      const b = runB ?? runs[0]?.id;
      const a = runA ?? runs[1]?.id;
      if (!runA && !runB && runs.length === 1) {
        // A nightly job's first night: nothing to compare yet is not a failure.
        process.stderr.write(
          `gatecheck diff: ${options.db} has one run (${b}); the next run will be compared with it\n`,
        );
        if (options.json) process.stdout.write("null\n");
        return;
      }
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
  }, options.db);
}
