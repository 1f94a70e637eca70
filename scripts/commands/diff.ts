import type { Command } from "commander";
import { ResultsError } from "../../results/results-error.ts";
import { formatRunDiff } from "../../results/run-diff.ts";
import { loadRunDiff } from "../../results/run-diff-io.ts";
import { DEFAULT_DB_PATH, openStoreReadonly } from "../../results/store.ts";
import { EXIT } from "../exit-codes.ts";
import { withResultsErrors } from "../results-errors.ts";
import type { RegisterCommand } from "./index.ts";

export const registerDiff: RegisterCommand = (program: Command) => {
  program
    .command("diff")
    .description(
      "Compare two runs (default: the two latest): new silent defects, fixed ones, changed versions. Exits 1 when a clean cell became a silent defect",
    )
    .argument("[runA]", "the older run (default: the second latest)")
    .argument("[runB]", "the newer run (default: the latest)")
    .option("--db <path>", "results database", DEFAULT_DB_PATH)
    .option("--json", "print the diff as JSON")
    .action(
      (
        runA: string | undefined,
        runB: string | undefined,
        options: { db: string; json?: boolean },
      ) =>
        withResultsErrors(() => {
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
        }),
    );
};
