import type { Command } from "commander";
import { DEFAULT_DB_PATH } from "../../results/default-db-path.ts";
import type { RegisterCommand } from "./index.ts";
import { lazyAction } from "./lazy-action.ts";

export const registerPrune: RegisterCommand = (program: Command) => {
  program
    .command("prune")
    .description(
      "Keep the last N runs of a results database and their run folders; delete the older ones and give the space back",
    )
    .requiredOption("--keep <n>", "how many of the newest runs to keep (at least 1)")
    .option("--db <path>", "results database", DEFAULT_DB_PATH)
    .option(
      "--out <dir>",
      "where the runs' folders are (<out>/runs/<run-id>); default: the database's folder, as for sweep",
    )
    .option("--dry-run", "say what would be deleted, delete nothing")
    .option("--json", "print what was (or would be) deleted as JSON")
    .action(lazyAction(async () => (await import("../actions/prune.ts")).pruneAction));
};
