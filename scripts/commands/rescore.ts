import type { Command } from "commander";
import { DEFAULT_DB_PATH } from "../../results/default-db-path.ts";
import type { RegisterCommand } from "./index.ts";
import { lazyAction } from "./lazy-action.ts";

export const registerRescore: RegisterCommand = (program: Command) => {
  program
    .command("rescore")
    .argument("[run]", "the run to re-judge (default: the latest)")
    .description(
      "Re-judge a run's stored bytes with today's lens as a new run; no gateway is started",
    )
    .option("--db <file>", "results database", DEFAULT_DB_PATH)
    .option("--json", "print the result as JSON")
    .option(
      "--workers <n>",
      "worker threads that judge (default: one per core on machines with two or more, else none; 0 judges in this thread; runs under 20,000 attempts are always judged here)",
    )
    .action(lazyAction(async () => (await import("../actions/rescore.ts")).rescoreAction));
};
