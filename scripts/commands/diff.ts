import type { Command } from "commander";
import { DEFAULT_DB_PATH } from "../../results/default-db-path.ts";
import type { RegisterCommand } from "./index.ts";
import { lazyAction } from "./lazy-action.ts";

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
    .action(lazyAction(async () => (await import("../actions/diff.ts")).diffAction));
};
