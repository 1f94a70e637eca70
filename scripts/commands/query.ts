import type { Command } from "commander";
import { DEFAULT_DB_PATH } from "../../results/default-db-path.ts";
import type { RegisterCommand } from "./index.ts";
import { lazyAction } from "./lazy-action.ts";

export const registerQuery: RegisterCommand = (program: Command) => {
  program
    .command("query")
    .description("Run one read-only SQL statement against the results database")
    .argument("<sql>", 'a SELECT statement, e.g. "SELECT * FROM runs"')
    .option("--db <path>", "results database", DEFAULT_DB_PATH)
    .option("--json", "print rows as a JSON array of objects")
    .option(
      "--timeout <seconds>",
      "end the query after this long, exit 2 (default: none; Ctrl-C also ends it)",
    )
    .action(lazyAction(async () => (await import("../actions/query.ts")).queryAction));
};
